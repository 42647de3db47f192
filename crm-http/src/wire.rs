//! A connection's bytes, watched on their way in and out:
//!
//! - **In**: request heads must end their lines with CRLF (RFC 9112 §2.2). hyper's parser
//!   (httparse) also takes a bare LF, which a proxy in front may read differently: one of
//!   the disagreements that request smuggling is made of. The [`Framing`] scanner follows
//!   the connection's framing (heads, `Content-Length` bodies, chunked bodies) and turns a
//!   bare LF in a head into a NUL byte, which hyper's parser refuses: the client gets
//!   hyper's own `400 Bad Request` and the connection is closed. Chunk framing needs no help:
//!   hyper's chunked decoder already demands CRLF.
//! - **Out**: a write that makes no progress for the write timeout (`--write-timeout`)
//!   fails the connection, so a client that stops reading cannot hold a response, and the
//!   memory it pins, for longer than that (as nginx's `send_timeout`: the time between two
//!   successful writes, not the whole response).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// The byte a bare LF in a request head becomes: never valid in a head, so hyper's parser
/// refuses the request.
const REFUSED: u8 = 0;

/// The scanner's longest head (request line and headers) kept to read its framing headers;
/// a longer head is refused by hyper's own limit (`--max-header-bytes`, at most this).
const MAX_HEAD: usize = 1024 * 1024;

/// Where the scanner is in the connection's byte stream.
#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    /// In a request head: the head so far (for its framing headers).
    Head,
    /// In a body of known length: bytes left.
    Body(u64),
    /// In a chunked body.
    Chunked(Chunk),
    /// Framing the scanner cannot follow (a refused head, a coding it does not know, a
    /// head it could not read): hyper refuses such a request and closes the connection,
    /// so nothing more needs watching.
    Done,
}

/// Where the scanner is in a chunked body (RFC 9112 §7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chunk {
    /// The chunk-size line (size and extensions), with the size read so far.
    Size(u64, bool),
    /// Chunk data: bytes left.
    Data(u64),
    /// The CRLF after chunk data.
    DataEnd,
    /// The trailer section after the last chunk: whether the current line is empty so far.
    Trailer(bool),
}

/// Follows a connection's request framing and refuses bare LFs in request heads.
#[derive(Debug)]
pub struct Framing {
    state: State,
    /// The current head's bytes (bounded by [`MAX_HEAD`]).
    head: Vec<u8>,
    /// The byte before the current one (a CR, for the LF check).
    previous: u8,
}

impl Default for Framing {
    fn default() -> Self {
        Framing {
            state: State::Head,
            head: Vec::new(),
            previous: 0,
        }
    }
}

impl Framing {
    /// Scans `bytes` as they arrive, in place: each bare LF of a request head becomes a NUL.
    /// Returns whether one was found (the connection is then left alone).
    pub fn scan(&mut self, bytes: &mut [u8]) -> bool {
        let mut refused = false;
        let mut i = 0;
        while i < bytes.len() {
            match &mut self.state {
                State::Done => return refused,
                State::Body(left) => {
                    let take = usize::try_from(*left)
                        .unwrap_or(usize::MAX)
                        .min(bytes.len() - i);
                    i += take;
                    *left -= take as u64;
                    if *left == 0 {
                        self.state = State::Head;
                        self.previous = 0;
                    }
                    continue;
                }
                State::Chunked(Chunk::Data(left)) => {
                    let take = usize::try_from(*left)
                        .unwrap_or(usize::MAX)
                        .min(bytes.len() - i);
                    i += take;
                    *left -= take as u64;
                    if *left == 0 {
                        self.state = State::Chunked(Chunk::DataEnd);
                    }
                    continue;
                }
                State::Chunked(chunk) => {
                    *chunk = match Self::chunk_byte(*chunk, bytes[i], self.previous) {
                        Some(next) => next,
                        None => {
                            // The last chunk's trailers ended: the next request's head.
                            self.state = State::Head;
                            self.previous = 0;
                            i += 1;
                            continue;
                        }
                    };
                }
                State::Head => {
                    let byte = bytes[i];
                    if byte == b'\n' && self.previous != b'\r' {
                        bytes[i] = REFUSED;
                        refused = true;
                        self.state = State::Done;
                        return refused;
                    }
                    if self.head.len() >= MAX_HEAD {
                        self.state = State::Done;
                        return refused;
                    }
                    self.head.push(byte);
                    if byte == b'\n' {
                        self.end_of_line();
                    }
                }
            }
            self.previous = bytes[i];
            i += 1;
        }
        refused
    }

    /// After a line of the head: leading empty lines are skipped (RFC 9112 §2.2), an empty
    /// line after the request line ends the head and starts its body.
    fn end_of_line(&mut self) {
        if self.head == b"\r\n" {
            self.head.clear();
            return;
        }
        if !self.head.ends_with(b"\r\n\r\n") {
            return;
        }
        let head = std::mem::take(&mut self.head);
        self.state = match body_framing(&head) {
            Some(BodyFraming::Length(0)) => State::Head,
            Some(BodyFraming::Length(n)) => State::Body(n),
            Some(BodyFraming::Chunked) => State::Chunked(Chunk::Size(0, false)),
            None => State::Done,
        };
    }

    /// The state after `byte` in a chunked body (`previous`: the byte before it); `None`
    /// when the body ends with it.
    fn chunk_byte(chunk: Chunk, byte: u8, previous: u8) -> Option<Chunk> {
        Some(match chunk {
            Chunk::Size(size, in_extension) => match byte {
                b'\n' if previous == b'\r' && size == 0 => Chunk::Trailer(true),
                b'\n' => Chunk::Data(size),
                _ if in_extension => Chunk::Size(size, true),
                b';' => Chunk::Size(size, true),
                b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F' => {
                    let digit = u64::from((byte as char).to_digit(16).unwrap_or(0));
                    Chunk::Size(size.saturating_mul(16).saturating_add(digit), false)
                }
                _ => Chunk::Size(size, false),
            },
            Chunk::Data(left) => Chunk::Data(left),
            Chunk::DataEnd => match byte {
                b'\n' => Chunk::Size(0, false),
                _ => Chunk::DataEnd,
            },
            Chunk::Trailer(empty) => match byte {
                b'\n' if empty => return None,
                b'\n' => Chunk::Trailer(true),
                b'\r' => Chunk::Trailer(empty),
                _ => Chunk::Trailer(false),
            },
        })
    }
}

/// How a request's body is framed, by its head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyFraming {
    /// `Content-Length` (0 without one).
    Length(u64),
    /// `Transfer-Encoding` ending in `chunked`.
    Chunked,
}

/// The framing of the body after `head` (a whole head, CRLF lines); `None` when it cannot
/// be followed: an unreadable length, two different lengths, or a transfer coding that
/// does not end in `chunked` (hyper refuses all of these and closes the connection).
fn body_framing(head: &[u8]) -> Option<BodyFraming> {
    let mut length: Option<u64> = None;
    let mut codings: Option<String> = None;
    for line in head.split(|b| *b == b'\n').skip(1) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(colon) = line.iter().position(|b| *b == b':') else {
            continue;
        };
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        let value = std::str::from_utf8(value).ok()?.trim();
        if name.eq_ignore_ascii_case(b"content-length") {
            for part in value.split(',') {
                let n: u64 = part.trim().parse().ok()?;
                if length.is_some_and(|l| l != n) {
                    return None;
                }
                length = Some(n);
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            let all = codings.get_or_insert_with(String::new);
            if !all.is_empty() {
                all.push(',');
            }
            all.push_str(value);
        }
    }
    match codings {
        Some(codings) => {
            let last = codings.rsplit(',').next().unwrap_or("").trim();
            last.eq_ignore_ascii_case("chunked")
                .then_some(BodyFraming::Chunked)
        }
        None => Some(BodyFraming::Length(length.unwrap_or(0))),
    }
}

/// A connection's stream with the [`Framing`] check on what it reads and the write
/// timeout on what it writes.
#[derive(Debug)]
pub struct Wire<S> {
    inner: S,
    framing: Framing,
    write_timeout: Duration,
    /// Set while a write waits: when it fires, the write fails.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> Wire<S> {
    /// `inner`, watched, with writes failing after `write_timeout` without progress.
    pub fn new(inner: S, write_timeout: Duration) -> Self {
        Wire {
            inner,
            framing: Framing::default(),
            write_timeout,
            stalled: None,
        }
    }

    /// The wrapped stream.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// A write's outcome: progress clears the stall timer; no progress starts it (or
    /// polls it), and its end is a `TimedOut` error.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        outcome: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match outcome {
            Poll::Ready(result) => {
                self.stalled = None;
                Poll::Ready(result)
            }
            Poll::Pending => {
                let timeout = self.write_timeout;
                let timer = self
                    .stalled
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                ready!(timer.as_mut().poll(cx));
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the client read nothing within the write timeout",
                )))
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Wire<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        let refused = this.framing.scan(&mut buf.filled_mut()[before..]);
        if refused {
            tracing::debug!("refused a request head with a bare LF");
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Wire<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let outcome = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.watch(cx, outcome)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let outcome = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.watch(cx, outcome)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let outcome = Pin::new(&mut this.inner).poll_flush(cx);
        this.watch(cx, outcome)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let outcome = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.watch(cx, outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scans `parts` as successive reads; returns the bytes as hyper would see them and
    /// whether a bare LF was refused.
    fn scan(parts: &[&[u8]]) -> (Vec<u8>, bool) {
        let mut framing = Framing::default();
        let mut seen = Vec::new();
        let mut refused = false;
        for part in parts {
            let mut bytes = part.to_vec();
            refused |= framing.scan(&mut bytes);
            seen.extend_from_slice(&bytes);
        }
        (seen, refused)
    }

    #[test]
    fn crlf_heads_pass_untouched_byte_by_byte_or_whole() {
        let request: &[u8] =
            b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n";
        assert_eq!(scan(&[request]), (request.to_vec(), false));
        let bytes: Vec<&[u8]> = request.chunks(1).collect();
        assert_eq!(scan(&bytes), (request.to_vec(), false));
    }

    #[test]
    fn a_bare_lf_in_a_head_becomes_a_byte_the_parser_refuses() {
        let (seen, refused) = scan(&[b"GET / HTTP/1.1\nHost: x\r\n\r\n"]);
        assert!(refused);
        assert_eq!(&seen[..15], b"GET / HTTP/1.1\0");
        let (_, refused) = scan(&[b"GET / HTTP/1.1\r\nHost: x\r\n\n"]);
        assert!(refused, "the head's last line");
        let (_, refused) = scan(&[b"GET / HTTP/1.1\r\nHost: x\r", b"\n\r\n"]);
        assert!(!refused, "a CRLF split between reads");
    }

    #[test]
    fn bodies_may_hold_bare_lfs_and_the_next_head_is_still_checked() {
        let body_then_good: &[u8] = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\na\nbGET / HTTP/1.1\r\nHost: x\r\n\r\n";
        assert_eq!(scan(&[body_then_good]), (body_then_good.to_vec(), false));
        let (_, refused) = scan(&[
            b"POST / HTTP/1.1\r\ncontent-length:  3 \r\n\r\na\nb",
            b"GET / HTTP/1.1\nHost: x\r\n\r\n",
        ]);
        assert!(refused);
    }

    #[test]
    fn chunked_bodies_are_followed_to_their_end() {
        let chunked: &[u8] = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\
            4;ext=1\r\na\nb\n\r\n0\r\nX-Trailer: 1\r\n\r\nGET / HTTP/1.1\nHost: x\r\n\r\n";
        let (seen, refused) = scan(&[chunked]);
        assert!(refused, "the head after the chunked body is checked");
        let at = seen.len() - b"Host: x\r\n\r\n".len() - 1;
        assert_eq!(seen[at], REFUSED);
        let (_, refused) = scan(&[
            b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1\r\n\n\r\n0\r\n\r\n",
        ]);
        assert!(!refused, "chunked is the last coding: followed as chunked");
    }

    #[test]
    fn framing_it_cannot_follow_is_left_to_hyper() {
        assert_eq!(
            body_framing(b"POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\n"),
            None
        );
        assert_eq!(
            body_framing(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n"),
            None
        );
        assert_eq!(
            body_framing(b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n"),
            None
        );
        assert_eq!(
            body_framing(b"POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n"),
            Some(BodyFraming::Length(5))
        );
        assert_eq!(
            body_framing(b"GET / HTTP/1.1\r\n\r\n"),
            Some(BodyFraming::Length(0))
        );
    }

    #[test]
    fn leading_empty_lines_are_skipped() {
        let request: &[u8] = b"\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n";
        assert_eq!(scan(&[request]), (request.to_vec(), false));
    }
}
