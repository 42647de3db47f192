//! The webhook sender (API.md §13, `crm_http::ops::webhook`) against a real HTTP receiver:
//! the shared receiver (`receiver.rs`), started by each test on 127.0.0.1, records what it
//! got and answers as the test says. Outcomes by answer (2xx, 500, 410, 429 with `Retry-After`, 503 with a
//! date, a redirect not followed, no answer at all), the refusals of forbidden addresses
//! (literal or resolved) and of http without `allow_http`, and the signatures checked by
//! the official Standard Webhooks library (`scripts/webhook-verify`, Python), with one
//! secret, two during a rotation, a wrong secret and a changed body.
//!
//! No timed assertions: the receiver that never answers only shows that the attempt ends
//! as a failure.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use base64::Engine as _;
use crm_http::ops::webhook::{Message, Outcome, Sender, SenderOptions, signature};

use crate::receiver::{Got, Receiver, Reply};

// ---------------------------------------------------------------------------------------
// Helpers.

/// A sender for local receivers: http and loopback allowed.
fn local_sender() -> Sender {
    Sender::new(SenderOptions {
        allow_http: true,
        allow_private: true,
        ..SenderOptions::default()
    })
    .unwrap()
}

/// A sender with the defaults but http allowed: the address checks apply.
fn checking_sender() -> Sender {
    Sender::new(SenderOptions {
        allow_http: true,
        ..SenderOptions::default()
    })
    .unwrap()
}

/// A new secret, `whsec_` + base64 of 32 bytes made from `seed`.
fn secret(seed: u8) -> String {
    let bytes: Vec<u8> = (0..32u8)
        .map(|i| i.wrapping_mul(31).wrapping_add(seed))
        .collect();
    format!(
        "whsec_{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

const BODY: &[u8] = br#"{"type":"note.created","timestamp":"2026-11-25T10:00:00Z","data":{"id":42,"body":"caf\u00e9 \u2014 ok"}}"#;

async fn send_to(sender: &Sender, url: &str, secrets: &[&str]) -> Outcome {
    sender
        .send(
            &Message {
                url,
                id: "msg_2c1f5a3e",
                body: BODY,
                secrets,
            },
            now(),
        )
        .await
}

fn assert_failed(outcome: &Outcome, expected: Option<u16>) -> Option<Duration> {
    match outcome {
        Outcome::Failed {
            status,
            error,
            retry_after,
        } => {
            assert_eq!(*status, expected, "{outcome:?}");
            assert!(!error.is_empty());
            *retry_after
        }
        other => panic!("expected Failed with {expected:?}, got {other:?}"),
    }
}

fn assert_refused(outcome: &Outcome) -> &str {
    match outcome {
        Outcome::Refused { error } => error,
        other => panic!("expected Refused, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Answers.

#[tokio::test]
async fn a_2xx_is_delivered_with_the_standard_headers_over_one_connection() {
    let receiver = Receiver::answering(Reply::Status(204, vec![])).await;
    let sender = local_sender();
    let key = secret(1);
    let timestamp = now();
    let msg = Message {
        url: &receiver.url(),
        id: "msg_2c1f5a3e",
        body: BODY,
        secrets: &[&key],
    };
    assert_eq!(
        sender.send(&msg, timestamp).await,
        Outcome::Delivered { status: 204 }
    );
    // A clone shares the client and its pool: the second message reuses the connection.
    assert_eq!(
        sender.clone().send(&msg, timestamp + 1).await,
        Outcome::Delivered { status: 204 }
    );
    let got = receiver.got();
    assert_eq!(got.len(), 2);
    let first = &got[0];
    assert_eq!(first.method, "POST");
    assert_eq!(first.path, "/hooks/crm");
    assert_eq!(first.header("content-type"), "application/json");
    assert_eq!(first.header("webhook-id"), "msg_2c1f5a3e");
    assert_eq!(first.header("webhook-timestamp"), timestamp.to_string());
    assert_eq!(
        first.header("webhook-signature"),
        signature(&[&key], "msg_2c1f5a3e", timestamp, BODY).unwrap()
    );
    assert!(first.header("webhook-signature").starts_with("v1,"));
    assert!(first.header("user-agent").starts_with("crm-webhooks/"));
    assert_eq!(first.body, BODY);
    assert_eq!(
        got[1].header("webhook-id"),
        "msg_2c1f5a3e",
        "the same id on a retry"
    );
    assert_eq!(
        got[1].header("webhook-timestamp"),
        (timestamp + 1).to_string()
    );
    assert_eq!(receiver.connections(), 1);

    let ok = Receiver::answering(Reply::Status(200, vec![])).await;
    assert_eq!(
        send_to(&sender, &ok.url(), &[&key]).await,
        Outcome::Delivered { status: 200 }
    );
}

#[tokio::test]
async fn a_500_fails_with_its_status_and_a_410_is_gone() {
    let sender = local_sender();
    let key = secret(2);
    let failing = Receiver::answering(Reply::Status(500, vec![("retry-after", "60".into())])).await;
    let retry_after = assert_failed(&send_to(&sender, &failing.url(), &[&key]).await, Some(500));
    assert_eq!(retry_after, None, "Retry-After counts on 429 and 503 only");
    assert_eq!(failing.got().len(), 1);

    let gone = Receiver::answering(Reply::Status(410, vec![])).await;
    assert_eq!(send_to(&sender, &gone.url(), &[&key]).await, Outcome::Gone);

    let not_found = Receiver::answering(Reply::Status(404, vec![])).await;
    assert_failed(
        &send_to(&sender, &not_found.url(), &[&key]).await,
        Some(404),
    );
}

#[tokio::test]
async fn retry_after_is_read_from_a_429_and_a_503() {
    let sender = local_sender();
    let key = secret(3);
    let busy = Receiver::answering(Reply::Status(429, vec![("retry-after", "7".into())])).await;
    let retry_after = assert_failed(&send_to(&sender, &busy.url(), &[&key]).await, Some(429));
    assert_eq!(retry_after, Some(Duration::from_secs(7)));

    // An HTTP date, two minutes after the attempt's timestamp.
    let timestamp = now();
    let at = chrono::DateTime::from_timestamp(timestamp + 120, 0).unwrap();
    let date = at.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
    let down = Receiver::answering(Reply::Status(503, vec![("retry-after", date)])).await;
    let outcome = sender
        .send(
            &Message {
                url: &down.url(),
                id: "msg_503",
                body: BODY,
                secrets: &[&key],
            },
            timestamp,
        )
        .await;
    assert_eq!(
        assert_failed(&outcome, Some(503)),
        Some(Duration::from_secs(120))
    );

    let vague =
        Receiver::answering(Reply::Status(503, vec![("retry-after", "later".into())])).await;
    assert_eq!(
        assert_failed(&send_to(&sender, &vague.url(), &[&key]).await, Some(503)),
        None
    );
}

#[tokio::test]
async fn a_redirect_is_a_failure_and_is_not_followed() {
    let sender = local_sender();
    // The redirect points at another receiver: following it would show there.
    let target = Receiver::answering(Reply::Status(200, vec![])).await;
    let redirecting =
        Receiver::answering(Reply::Status(302, vec![("location", target.url())])).await;
    let key = secret(4);
    assert_failed(
        &send_to(&sender, &redirecting.url(), &[&key]).await,
        Some(302),
    );
    assert_eq!(redirecting.got().len(), 1);
    assert!(target.got().is_empty(), "the redirect was followed");
    for status in [301, 307, 308] {
        let moved =
            Receiver::answering(Reply::Status(status, vec![("location", target.url())])).await;
        assert_failed(&send_to(&sender, &moved.url(), &[&key]).await, Some(status));
    }
    assert!(target.got().is_empty(), "a redirect was followed");
}

#[tokio::test]
async fn a_receiver_that_never_answers_fails_after_the_timeout() {
    let receiver = Receiver::answering(Reply::Hang).await;
    let sender = Sender::new(SenderOptions {
        allow_http: true,
        allow_private: true,
        timeout: Duration::from_millis(300),
        ..SenderOptions::default()
    })
    .unwrap();
    let outcome = send_to(&sender, &receiver.url(), &[&secret(5)]).await;
    match &outcome {
        Outcome::TimedOut { error } => assert!(!error.is_empty()),
        other => panic!("expected TimedOut, got {other:?}"),
    }
    assert_eq!(receiver.got().len(), 1, "the request was sent");
}

#[tokio::test]
async fn nothing_listening_is_a_failure() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let outcome = send_to(
        &local_sender(),
        &format!("http://127.0.0.1:{port}/"),
        &[&secret(6)],
    )
    .await;
    assert_failed(&outcome, None);
}

// ---------------------------------------------------------------------------------------
// Refusals.

#[tokio::test]
async fn forbidden_addresses_are_refused_and_nothing_is_sent() {
    let receiver = Receiver::answering(Reply::Status(200, vec![])).await;
    let port = receiver.addr.port();
    let sender = checking_sender();
    let key = secret(7);
    for url in [
        format!("http://127.0.0.1:{port}/hooks"),
        format!("http://[::1]:{port}/hooks"),
        format!("http://[::ffff:127.0.0.1]:{port}/hooks"),
        format!("http://2130706433:{port}/hooks"),
        format!("http://localhost:{port}/hooks"),
        "http://10.1.2.3/hooks".to_owned(),
        "http://169.254.169.254/latest/meta-data".to_owned(),
        "http://[fe80::1]/hooks".to_owned(),
        "http://0.0.0.0/hooks".to_owned(),
    ] {
        let outcome = send_to(&sender, &url, &[&key]).await;
        let error = assert_refused(&outcome);
        assert!(error.contains("not allowed"), "{url}: {error}");
        assert!(!error.contains(&key[6..]), "{url}: the secret in {error}");
    }
    assert!(receiver.got().is_empty(), "something reached the receiver");
    assert_eq!(receiver.connections(), 0);

    // The same receiver, by name, with private addresses allowed: the resolver's path
    // delivers.
    assert_eq!(
        send_to(
            &local_sender(),
            &format!("http://localhost:{port}/hooks"),
            &[&key]
        )
        .await,
        Outcome::Delivered { status: 200 }
    );
    assert_eq!(receiver.got().len(), 1);
}

#[tokio::test]
async fn http_needs_allow_http_and_other_schemes_are_refused() {
    let receiver = Receiver::answering(Reply::Status(200, vec![])).await;
    let https_only = Sender::new(SenderOptions {
        allow_private: true,
        ..SenderOptions::default()
    })
    .unwrap();
    let key = secret(8);
    let error = assert_refused(&send_to(&https_only, &receiver.url(), &[&key]).await).to_owned();
    assert!(error.contains("https"), "{error}");
    for url in ["ftp://127.0.0.1/x", "file:///etc/passwd", "not a url"] {
        assert_refused(&send_to(&local_sender(), url, &[&key]).await);
    }
    assert!(receiver.got().is_empty());
}

#[tokio::test]
async fn a_secret_that_is_not_base64_is_refused_without_showing_it() {
    let receiver = Receiver::answering(Reply::Status(200, vec![])).await;
    let outcome = send_to(&local_sender(), &receiver.url(), &["whsec_s3cr3t!!!"]).await;
    let error = assert_refused(&outcome);
    assert!(!error.contains("s3cr3t"), "{error}");
    assert!(receiver.got().is_empty());
}

// ---------------------------------------------------------------------------------------
// The official verifier.

/// Runs `scripts/webhook-verify` on what the receiver got, with this secret (and this body
/// instead of the one received, if given). True if it verified.
fn official_verify(got: &Got, secret: &str, body: Option<&[u8]>) -> bool {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/webhook-verify");
    let dir = std::env::temp_dir().join(format!("crm-webhook-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static N: AtomicUsize = AtomicUsize::new(0);
    let file = dir.join(format!("body-{}", N.fetch_add(1, Ordering::SeqCst)));
    std::fs::write(&file, body.unwrap_or(&got.body)).unwrap();
    let output = Command::new(&script)
        .env("WEBHOOK_SECRET", secret)
        .arg("--id")
        .arg(got.header("webhook-id"))
        .arg("--timestamp")
        .arg(got.header("webhook-timestamp"))
        .arg("--signature")
        .arg(got.header("webhook-signature"))
        .arg("--body")
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{} does not run: {e}", script.display()));
    let _ = std::fs::remove_file(&file);
    match output.status.code() {
        Some(0) => true,
        Some(1) => false,
        _ => panic!(
            "webhook-verify could not run: {:?}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_official_standard_webhooks_library_verifies_the_signatures() {
    let receiver = Receiver::answering(Reply::Status(200, vec![])).await;
    let sender = local_sender();
    let (old, new, wrong) = (secret(10), secret(11), secret(12));

    assert_eq!(
        send_to(&sender, &receiver.url(), &[&new]).await,
        Outcome::Delivered { status: 200 }
    );
    // During a rotation: both signatures, either secret verifies.
    assert_eq!(
        send_to(&sender, &receiver.url(), &[&old, &new]).await,
        Outcome::Delivered { status: 200 }
    );
    let got = receiver.got();
    let (single, rotating) = (got[0].clone(), got[1].clone());
    assert_eq!(rotating.header("webhook-signature").split(' ').count(), 2);

    let verdicts = tokio::task::spawn_blocking(move || {
        let mut tampered = single.body.clone();
        tampered[10] ^= 1;
        [
            official_verify(&single, &new, None),
            official_verify(&rotating, &old, None),
            official_verify(&rotating, &new, None),
            official_verify(&single, &old, None),
            official_verify(&single, &wrong, None),
            official_verify(&rotating, &wrong, None),
            official_verify(&single, &new, Some(&tampered)),
            official_verify(&rotating, &old, Some(b"{}")),
        ]
    })
    .await
    .unwrap();
    assert_eq!(
        verdicts,
        [true, true, true, false, false, false, false, false],
        "verified: one secret, rotation old, rotation new; refused: an unused secret, a \
         wrong secret (twice), a changed body (twice)"
    );
}
