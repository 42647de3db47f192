//! Large answers and clients that do not read them (issue 33, defect 1), and what the wire
//! refuses (defect 8): a list page bounded in bytes, a write that makes no progress cut
//! off after `--write-timeout`, a request that counts against its key until its answer has
//! left, CRLF-only heads, and only the `chunked` transfer coding.

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::json;

use crate::common::Server;

const MB: u64 = 1024 * 1024;

/// Makes `count` estimates of 1,000 lines of 900 characters (about 1.14 MB of JSON each):
/// one through the API, the rest as its clones.
async fn large_estimates(s: &Server, count: usize) {
    crm_http::ops::webhook::install_crypto_provider();
    let http = reqwest::Client::new();
    let base = format!("http://{}", s.addr);
    let category: i64 =
        s.db.client()
            .await
            .unwrap()
            .query_one(
                "SELECT id FROM categories WHERE type = 'estimate' AND system_default",
                &[],
            )
            .await
            .unwrap()
            .get(0);
    let header = json!({
        "bill_clientid": s.ids.clients[0].id,
        "bill_categoryid": category,
        "bill_date": "2026-06-20",
    });
    let created: serde_json::Value = http
        .post(format!("{base}/api/estimates"))
        .bearer_auth(&s.key)
        .json(&header)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["data"]["id"].as_i64().expect("an estimate");
    let line = json!({"description": "x".repeat(900), "quantity": 1, "rate": 1});
    let items = json!({"items": vec![line; 1000]});
    let put = http
        .put(format!("{base}/api/estimates/{id}/items"))
        .bearer_auth(&s.key)
        .json(&items)
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 200);
    for _ in 1..count {
        let clone = http
            .post(format!("{base}/api/estimates/{id}/clone"))
            .bearer_auth(&s.key)
            .json(&header)
            .send()
            .await
            .unwrap();
        assert_eq!(clone.status(), 201);
    }
}

/// A connection that sends `requests` pipelined `GET /api/estimates?limit=100` with `key`
/// and never reads what comes back.
fn non_reader(s: &Server, key: &str, requests: usize) -> TcpStream {
    let mut stream = s.connect();
    let one = format!(
        "GET /api/estimates?limit=100 HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {key}\r\n\r\n"
    );
    stream.write_all(one.repeat(requests).as_bytes()).unwrap();
    stream
}

/// Whether the server ended `stream`: reading it to the end meets the end (or a reset),
/// not the read timeout of a connection left open.
fn ended_by_the_server(stream: &mut TcpStream) -> bool {
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) => {
                return matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted
                );
            }
        }
    }
}

/// The answers to `GET /api/estimates` the service has finished (its metrics count an
/// answer when it is made, before it is written).
fn estimate_pages_answered(s: &Server) -> u64 {
    let metrics = s.get("/metrics", None).body;
    metrics
        .lines()
        .find_map(|l| {
            l.strip_prefix(
                "crm_http_requests_total{method=\"GET\",route=\"/api/estimates\",status=\"200\"}",
            )
        })
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn a_client_that_stops_reading_keeps_its_place_until_the_write_timeout_cuts_it_off() {
    let s = Server::start(&["--write-timeout", "20", "--max-in-flight-per-key", "1"]).await;
    large_estimates(&s, 12).await;
    let other = s.key_for(s.ids.admins[1]).await;
    // A connection of the key asks for a page of 3.4 MB ten times over and reads nothing:
    // once the socket buffers are full, an answer is stuck on its way out, and the next
    // request waits behind it (no more pages are made).
    let mut stuck = non_reader(&s, &s.key, 10);
    let mut answered = u64::MAX;
    assert!(
        s.eventually(|| {
            let now = estimate_pages_answered(&s);
            let stable = now == answered && now > 0;
            answered = now;
            std::thread::sleep(std::time::Duration::from_millis(500));
            stable
        }),
        "no page was made"
    );
    assert!(answered < 10, "every page was written: nothing is stuck");
    // The stuck answer still counts against its key: the key is at its maximum of one.
    let mut last = None;
    assert!(
        s.eventually(|| {
            let answer = s.get("/api/notes", Some(&s.key));
            let busy = answer.status == 429;
            last = Some(answer);
            busy
        }),
        "the key was not at its maximum while its answer was stuck: {last:?}"
    );
    // Other keys are served meanwhile.
    assert_eq!(s.get("/api/notes", Some(&other)).status, 200);
    // The write timeout ends the stuck connection, and with it its place.
    assert!(s.eventually(|| s.get("/api/notes", Some(&s.key)).status == 200));
    assert!(
        ended_by_the_server(&mut stuck),
        "a connection that read nothing was left open"
    );
}

#[tokio::test]
async fn clients_that_do_not_read_cost_memory_bounded_by_the_page_budget() {
    let s = Server::start(&["--max-in-flight-per-key", "100"]).await;
    // 40 estimates: an unbounded page of them would be 45 MB.
    large_estimates(&s, 40).await;
    for _ in 0..3 {
        assert_eq!(s.get("/api/estimates?limit=5", Some(&s.key)).status, 200);
    }
    let baseline = s.rss();
    let stuck: Vec<TcpStream> = (0..16).map(|_| non_reader(&s, &s.key, 4)).collect();
    // Each connection's answers are made one at a time (pipelined requests wait for the
    // answer before them): once every connection has one stuck, the service is still
    // answering others.
    let mut peak = baseline;
    for _ in 0..20 {
        assert_eq!(s.get("/api/notes?limit=1", Some(&s.key)).status, 200);
        peak = peak.max(s.rss());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let growth = peak.saturating_sub(baseline);
    eprintln!(
        "16 clients not reading pages of 4 MiB: RSS {} KiB before, peak {} KiB (growth {} KiB)",
        baseline / 1024,
        peak / 1024,
        growth / 1024
    );
    // Unbounded, each connection held a 45 MB page (over 700 MB in all); bounded, a page
    // is at most the 4 MiB budget.
    assert!(growth < 300 * MB, "RSS grew by {} MiB", growth / MB);
    drop(stuck);
}

#[tokio::test]
async fn request_heads_must_end_their_lines_with_crlf() {
    let s = Server::start(&[]).await;
    let bare = s.send(b"GET /healthz HTTP/1.1\nHost: test\nConnection: close\n\n");
    assert_eq!(bare.status, 400, "{bare:?}");
    let mixed = s.send(b"GET /healthz HTTP/1.1\r\nHost: test\nConnection: close\r\n\r\n");
    assert_eq!(mixed.status, 400, "{mixed:?}");
    // After a body that holds bare LFs, the next head is still held to CRLF.
    let mut stream = s.connect();
    let body = "{\"note_title\":\"a\",\n\"note_description\":\"b\"}";
    stream
        .write_all(
            format!(
                "POST /api/notes HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}\
                 GET /healthz HTTP/1.1\nHost: test\r\nConnection: close\r\n\r\n",
                s.key,
                body.len()
            )
            .as_bytes(),
        )
        .unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 201"), "{text}");
    assert!(
        text.contains("HTTP/1.1 400"),
        "the second head was served: {text}"
    );
    // CRLF heads are served as ever.
    assert_eq!(
        s.send(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            .status,
        200
    );
}

#[tokio::test]
async fn a_body_in_a_transfer_coding_other_than_chunked_is_a_501() {
    let s = Server::start(&[]).await;
    let body = "{\"note_title\":\"a\",\"note_description\":\"b\"}";
    let gzip_chunked = s.send(
        format!(
            "POST /api/notes HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n\
             {:x}\r\n{body}\r\n0\r\n\r\n",
            s.key,
            body.len()
        )
        .as_bytes(),
    );
    assert_eq!(gzip_chunked.status, 501, "{gzip_chunked:?}");
    assert_eq!(
        gzip_chunked.json(),
        json!({"message": "Only the chunked transfer coding is supported."})
    );
    assert_eq!(gzip_chunked.header("connection").as_deref(), Some("close"));
    let count: i64 =
        s.db.client()
            .await
            .unwrap()
            .query_one("SELECT count(*) FROM notes WHERE title = 'a'", &[])
            .await
            .unwrap()
            .get(0);
    assert_eq!(count, 0, "nothing was written");
    // Plain chunked bodies are read as ever.
    let chunked = s.send(
        format!(
            "POST /api/notes HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\
             {:x}\r\n{body}\r\n0\r\n\r\n",
            s.key,
            body.len()
        )
        .as_bytes(),
    );
    assert_eq!(chunked.status, 201, "{chunked:?}");
}
