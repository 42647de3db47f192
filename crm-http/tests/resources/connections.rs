//! Connections and requests a client can hold: a stalled body (defect 2), a flood of
//! connections at a lowered limit, accept errors when descriptors run out, and one key's
//! requests in progress.

use std::io::Write;
use std::net::{Ipv4Addr, TcpStream};

use crate::common::{Server, read_answer};

/// Headers of a POST announcing 100 bytes of body, and the first 10 of them.
fn stalled_post(key: &str) -> Vec<u8> {
    format!(
        "POST /api/notes HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"note_tit"
    )
    .into_bytes()
}

#[tokio::test]
async fn a_stalled_body_is_answered_408_and_the_connection_closed() {
    let s = Server::start(&["--body-timeout", "1"]).await;
    let mut stream = s.connect();
    stream.write_all(&stalled_post(&s.key)).unwrap();
    // Nothing more is sent; the answer comes, then the end of the connection (read_answer
    // reads until the server closes it).
    let answer = read_answer(&mut stream);
    assert_eq!(answer.status, 408, "{answer:?}");
    assert_eq!(
        answer.json(),
        serde_json::json!({"message": "The request body was not received in time."})
    );
    assert_eq!(answer.header("connection").as_deref(), Some("close"));
    assert!(answer.header("x-request-id").is_some());
}

#[tokio::test]
async fn connections_beyond_the_limit_are_refused_and_the_service_recovers() {
    let s = Server::start(&["--max-connections", "8"]).await;
    // Eight connections that stall in their headers take every slot.
    let stalled: Vec<TcpStream> = (0..8)
        .map(|_| {
            let mut stream = s.connect();
            stream.write_all(b"GET /healthz HTTP/1.1\r\n").unwrap();
            stream
        })
        .collect();
    // They were accepted in order; every later connection is answered 503 and closed.
    for _ in 0..20 {
        let refused = s.get("/healthz", None);
        assert_eq!(refused.status, 503, "{refused:?}");
        assert_eq!(
            refused.json(),
            serde_json::json!({"message": "Too many open connections."})
        );
        assert_eq!(refused.header("retry-after").as_deref(), Some("1"));
    }
    assert!(s.eventually(|| s.logged("connection limit reached") >= 1));
    assert_eq!(s.logged("connection limit reached"), 1, "logged once");
    // Once they go, the service answers again.
    drop(stalled);
    assert!(s.eventually(|| s.get("/healthz", None).status == 200));
}

/// Issue 47, item 4: one client address cannot take the connection limit from the others.
#[tokio::test]
async fn one_address_holds_at_most_its_cap_of_connections_and_others_are_served() {
    let s = Server::start(&[
        "--max-connections-per-address",
        "4",
        "--trusted-proxy",
        "127.0.0.3",
    ])
    .await;
    let one = Ipv4Addr::new(127, 0, 0, 2);
    let stall = |mut stream: TcpStream| {
        stream.write_all(b"GET /healthz HTTP/1.1\r\n").unwrap();
        stream
    };
    // Four connections of one address stall in their headers: its whole cap.
    let mut stalled = Vec::new();
    for _ in 0..4 {
        stalled.push(stall(s.connect_from(one).await));
    }
    // Its next ones are answered 503 and closed at once, as over the connection limit.
    for _ in 0..5 {
        let mut stream = s.connect_from(one).await;
        // The answer was written on accept; the request may meet a closed socket.
        let _ = stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n");
        let refused = read_answer(&mut stream);
        assert_eq!(refused.status, 503, "{refused:?}");
        assert_eq!(
            refused.json(),
            serde_json::json!({"message": "Too many open connections."})
        );
        assert_eq!(refused.header("retry-after").as_deref(), Some("1"));
    }
    assert!(s.eventually(|| s.logged("connection limit per address reached") >= 1));
    assert_eq!(
        s.logged("connection limit per address reached"),
        1,
        "logged once"
    );
    // Other addresses are served meanwhile.
    assert_eq!(s.get("/healthz", None).status, 200);
    // A trusted proxy speaks for many clients: its connections are not capped.
    let proxy = Ipv4Addr::new(127, 0, 0, 3);
    for _ in 0..6 {
        stalled.push(stall(s.connect_from(proxy).await));
    }
    let mut through_proxy = s.connect_from(proxy).await;
    through_proxy
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    assert_eq!(read_answer(&mut through_proxy).status, 200);
    // Once one of the address's connections closes, it is served again.
    drop(stalled.remove(0));
    let mut served = false;
    for _ in 0..100 {
        let mut stream = s.connect_from(one).await;
        let _ =
            stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
        if read_answer(&mut stream).status == 200 {
            served = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        served,
        "the address is served again once it holds fewer than 4"
    );
}

#[tokio::test]
async fn running_out_of_descriptors_backs_off_without_flooding_the_log() {
    // A hard limit of 64 open files, and a connection limit above it, so that accept
    // itself fails with "Too many open files".
    let s = Server::start_with_shell("ulimit -n 64 &&", &["--max-connections", "1000"]).await;
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", s.pid())).unwrap();
    let files = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    assert_eq!(
        files.split_whitespace().nth(3),
        files.split_whitespace().nth(4),
        "the soft limit is raised to the hard one: {files}"
    );
    let held: Vec<TcpStream> = (0..100)
        .map(|_| {
            let mut stream = s.connect();
            stream.write_all(b"GET /healthz HTTP/1.1\r\n").unwrap();
            stream
        })
        .collect();
    // Give the accept loop the time to fail repeatedly: a request queued behind the
    // flood waits for a descriptor.
    assert!(s.eventually(|| s.logged("accept failed") >= 1));
    std::thread::sleep(std::time::Duration::from_secs(1));
    let lines = s.logged("accept failed");
    assert!(
        lines <= 2,
        "{lines} accept-failure lines in about a second (the probe saw one every 50 ms)"
    );
    drop(held);
    assert!(s.eventually(|| s.get("/healthz", None).status == 200));
}

/// Whether the server answered (or closed) a connection whose request is still pending.
fn answered(stream: &mut TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 1];
    let done =
        !matches!(stream.peek(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
    stream.set_nonblocking(false).unwrap();
    done
}

#[tokio::test]
async fn one_key_cannot_hold_more_than_its_share_of_requests() {
    let s = Server::start(&["--max-in-flight-per-key", "2"]).await;
    let other = s.key_for(s.ids.admins[1]).await;
    let stalled = || {
        let mut stream = s.connect();
        stream.write_all(&stalled_post(&s.key)).unwrap();
        stream
    };
    // Two requests of the key stall in their bodies: they are in progress. (One that
    // raced with a probe and was refused is replaced.)
    let mut held = vec![stalled(), stalled()];
    let mut refused = None;
    assert!(s.eventually(|| {
        for stream in &mut held {
            if answered(stream) {
                *stream = stalled();
            }
        }
        let answer = s.get("/api/notes", Some(&s.key));
        let busy = answer.status == 429;
        refused = Some(answer);
        busy
    }));
    let refused = refused.unwrap();
    assert_eq!(
        refused.json(),
        serde_json::json!({"message": "Too many requests in progress for this API key."})
    );
    assert_eq!(refused.header("retry-after").as_deref(), Some("1"));
    // Another key is served meanwhile.
    assert_eq!(s.get("/api/notes", Some(&other)).status, 200);
    // When the stalled requests end, the key is served again.
    drop(held);
    assert!(s.eventually(|| s.get("/api/notes", Some(&s.key)).status == 200));
}
