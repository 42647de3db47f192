//! Sending the cases: [`run`] sends them a dozen at a time, holds each answer to the OpenAPI
//! document (`conformance.rs`) and to its expectation ([`verify`](super::verify::verify)),
//! and keeps the totals and every wrong answer in a [`Tally`].

use std::collections::BTreeMap;
use std::time::Duration;

use futures_util::stream::{self, StreamExt};

use super::body::{Case, Sent, urlencoded};
use super::verify::verify;
use crate::common::TestServer;

/// Requests in flight at once.
const CONCURRENCY: usize = 12;

/// What came back.
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The `Content-Type` header.
    pub content_type: String,
    /// The body.
    pub body: Vec<u8>,
}

/// Sends one case and reads the answer (after holding it to the document).
pub async fn send(s: &TestServer, case: &Case) -> Result<Reply, String> {
    let url = format!("{}{}", s.base, case.path);
    let mut request = s
        .http
        .request(case.method.clone(), url)
        .bearer_auth(&s.key)
        .timeout(Duration::from_secs(30));
    request = match &case.sent {
        Sent::None => request,
        Sent::Json(bytes) => request
            .header("content-type", "application/json")
            .body(bytes.clone()),
        Sent::Form(pairs) => request
            .header("content-type", "application/x-www-form-urlencoded")
            .body(urlencoded(pairs)),
        Sent::Multipart(pairs) => {
            let mut form = reqwest::multipart::Form::new();
            for (k, v) in pairs {
                form = form.text(k.clone(), v.clone());
            }
            request.multipart(form)
        }
        Sent::Raw(Some(ct), bytes) => request
            .header("content-type", ct.as_str())
            .body(bytes.clone()),
        Sent::Raw(None, bytes) => request.body(bytes.clone()),
    };
    let response = request
        .send()
        .await
        .map_err(|e| format!("request failed: {e}"))?;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let body = response
        .bytes()
        .await
        .map_err(|e| format!("body failed: {e}"))?
        .to_vec();
    crate::conformance::conformance(
        &case.method,
        &case.path,
        reqwest::StatusCode::from_u16(status).map_err(|e| e.to_string())?,
        &body,
    )?;
    Ok(Reply {
        status,
        content_type,
        body,
    })
}

/// Totals of a sweep.
#[derive(Default)]
pub struct Tally {
    /// Requests sent.
    pub requests: usize,
    /// Answers by status.
    pub statuses: BTreeMap<u16, usize>,
    /// What was wrong, one line a request.
    pub failures: Vec<String>,
}

impl Tally {
    /// Requests and statuses, for the test output.
    pub fn summary(&self) -> String {
        let dist: Vec<String> = self
            .statuses
            .iter()
            .map(|(s, n)| format!("{s}: {n}"))
            .collect();
        format!("{} requests; statuses {}", self.requests, dist.join(", "))
    }

    /// Fails with the first wrong answers, if any.
    pub fn assert_clean(&self) {
        assert!(
            self.failures.is_empty(),
            "{} of {} requests were answered wrongly:\n{}",
            self.failures.len(),
            self.requests,
            self.failures
                .iter()
                .take(60)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Sends `cases` (bounded concurrency) and records every wrong answer.
pub async fn run(s: &TestServer, group: &str, cases: Vec<Case>, tally: &mut Tally) {
    let results: Vec<(Case, Result<Reply, String>)> = stream::iter(cases)
        .map(|case| async move {
            let r = send(s, &case).await;
            (case, r)
        })
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    for (case, result) in results {
        tally.requests += 1;
        match result {
            Ok(reply) => {
                *tally.statuses.entry(reply.status).or_default() += 1;
                let problems = verify(&case, &reply);
                if !problems.is_empty() {
                    tally.failures.push(format!(
                        "{group} [{}] {}: {}",
                        case.sent.encoding(),
                        case.label,
                        problems.join("; ")
                    ));
                }
            }
            Err(e) => tally.failures.push(format!(
                "{group} [{}] {}: {e}",
                case.sent.encoding(),
                case.label
            )),
        }
    }
}
