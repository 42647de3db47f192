//! Bodies the client does not finish: shorter than announced, broken chunks, a declared
//! length past the limit. Sent as raw HTTP/1.1 bytes, since no client library writes them.

use std::time::Duration;

use reqwest::Method;

use super::body::{Case, Expect, MIB, Sent, status};
use super::checksum::{changed_tables, checksum};
use super::exchange::Reply;
use super::msg;
use super::verify::verify;
use crate::common::TestServer;

/// Sends raw HTTP/1.1 bytes (the client then stops writing) and reads the whole answer.
async fn raw_exchange(s: &TestServer, request: Vec<u8>) -> Reply {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = s.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    stream.write_all(&request).await.expect("write");
    stream.shutdown().await.expect("half-close");
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut bytes))
        .await
        .expect("an answer within 10 s")
        .expect("read");
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete head");
    let head = String::from_utf8_lossy(&bytes[..split]).to_string();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let content_type = head
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_default();
    Reply {
        status,
        content_type,
        body: bytes[split + 4..].to_vec(),
    }
}

#[tokio::test]
async fn bodies_cut_short_or_with_broken_chunks_are_400s_and_write_nothing() {
    let s = TestServer::start().await;
    let db = s.sql().await;
    let before = checksum(&db).await;
    let body = br#"{"note_title": "Cut short", "note_description": "never stored"}"#;
    let head = |extra: &str| {
        format!(
            "POST /api/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nConnection: close\r\n{extra}\r\n",
            s.key
        )
    };
    let unreadable = status(400, "The request body could not be read.");
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        (
            "a body shorter than its Content-Length",
            [
                head(&format!("Content-Length: {}\r\n", body.len() + 50)).as_bytes(),
                body,
            ]
            .concat(),
            unreadable.clone(),
        ),
        (
            "a chunk size that is not hexadecimal",
            [
                head("Transfer-Encoding: chunked\r\n").as_bytes(),
                b"zz\r\n",
                body,
            ]
            .concat(),
            unreadable.clone(),
        ),
        (
            "a chunk shorter than announced, then the end",
            [
                head("Transfer-Encoding: chunked\r\n").as_bytes(),
                format!("{:x}\r\n", body.len() + 10).as_bytes(),
                body,
            ]
            .concat(),
            unreadable.clone(),
        ),
        (
            "chunks without the last one",
            [
                head("Transfer-Encoding: chunked\r\n").as_bytes(),
                format!("{:x}\r\n", body.len()).as_bytes(),
                body,
                b"\r\n",
            ]
            .concat(),
            unreadable,
        ),
        (
            "a declared Content-Length over 1 MiB",
            [
                head(&format!("Content-Length: {}\r\n", MIB + 1)).as_bytes(),
                body,
            ]
            .concat(),
            status(413, msg::TOO_LARGE),
        ),
    ];
    for (label, request, expect) in cases {
        let case = Case {
            label: label.to_owned(),
            method: Method::POST,
            path: "/api/notes".into(),
            sent: Sent::None,
            expect,
        };
        let reply = raw_exchange(&s, request).await;
        let problems = verify(&case, &reply);
        assert!(problems.is_empty(), "{label}: {problems:?}");
    }
    assert_eq!(
        changed_tables(&before, &checksum(&db).await),
        Vec::<String>::new()
    );
}
