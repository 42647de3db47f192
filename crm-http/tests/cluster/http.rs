//! A minimal blocking HTTP/1.1 client for the multi-process tests: one request per
//! connection (`Connection: close`), the answer read whole.

use std::io::{Read, Write};
use std::time::Duration;

/// One answer: status, headers (names in lower case) and body.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Answer {
    /// The first value of header `name`.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON (`Null` when it is not JSON).
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// `data.id` of a JSON answer.
    pub(crate) fn id(&self) -> i64 {
        self.json()["data"]["id"]
            .as_i64()
            .unwrap_or_else(|| panic!("no data.id in {} {}", self.status, self.body))
    }
}

/// Sends one request to 127.0.0.1:`port`; status 0 when the connection fails.
pub(crate) fn call(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    form: &str,
) -> Answer {
    let failed = Answer {
        status: 0,
        headers: Vec::new(),
        body: String::new(),
    };
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return failed;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if method != "GET" {
        request.push_str(&format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            form.len()
        ));
    }
    request.push_str("\r\n");
    request.push_str(form);
    if stream.write_all(request.as_bytes()).is_err() {
        return failed;
    }
    let mut raw = Vec::new();
    if stream.read_to_end(&mut raw).is_err() && raw.is_empty() {
        return failed;
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return failed;
    };
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || after.len() < size {
            break;
        }
        out.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    out
}

/// The value of metric `name` with `labels` (e.g. `replica="127.0.0.1:5433"`) in a
/// Prometheus text exposition; `None` when absent.
pub(crate) fn metric(text: &str, name: &str, labels: &str) -> Option<f64> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(name)?;
        let (series, value) = rest.rsplit_once(' ')?;
        let matches = if labels.is_empty() {
            series.is_empty()
        } else {
            series.starts_with('{') && series.contains(labels)
        };
        if matches { value.parse().ok() } else { None }
    })
}
