//! Success envelopes: `{"data": …, "message": …}` for one record, with `meta` for lists,
//! and `{"data": {"id": N}, …}` for deletions; and the few answers that are not JSON (the
//! API reference page, its script, the metrics).

use bytes::Bytes;
use crm_core::listing::{Page, PageMeta};
use crm_store_pg::Listed;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde::Serialize;

use crate::error::ApiError;

/// The media type of every envelope.
pub const JSON: &str = "application/json; charset=utf-8";

/// A successful answer: status, body and how to label it.
#[derive(Debug)]
pub struct Reply {
    /// 200 or 201.
    pub status: StatusCode,
    /// The body: a serialised envelope, or an asset.
    pub body: Bytes,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Headers of its own (`Cache-Control` of an asset, …); the service adds the common
    /// ones (`Content-Type`, `X-Request-Id`, …).
    pub headers: HeaderMap,
    /// The same bytes compressed once and kept, for a body that never changes; `None` for
    /// envelopes, which are compressed per answer.
    pub precompressed: Option<&'static crate::encoding::StaticBody>,
}

#[derive(Serialize)]
struct One<'a, T> {
    data: &'a T,
    message: &'a str,
}

#[derive(Serialize)]
struct Many<'a, T> {
    data: &'a [T],
    meta: PageMeta,
    message: &'a str,
}

#[derive(Serialize)]
struct Id {
    id: i64,
}

fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, ApiError> {
    encode_into(Vec::with_capacity(FIRST_CAPACITY), value)
}

/// `value` serialised after what `out` holds.
fn encode_into<T: Serialize>(mut out: Vec<u8>, value: &T) -> Result<Vec<u8>, ApiError> {
    serde_json::to_writer(&mut out, value)
        .map_err(|e| ApiError::Internal(format!("cannot serialise a response: {e}")))?;
    Ok(out)
}

/// The buffer an envelope starts in: a record's answer mostly fits, so it is written
/// without growing (a `Vec` grown from nothing is copied at every doubling: `realloc` and
/// `memmove` were 4 % of a page's CPU in issue 55's profile).
const FIRST_CAPACITY: usize = 2048;

/// What a page's buffer starts with per record (a note is about 400 bytes of JSON; a
/// larger record grows the buffer a few times instead of a dozen).
const CAPACITY_PER_ITEM: usize = 512;

impl Reply {
    /// A JSON answer with `status`.
    pub fn json(status: StatusCode, body: Vec<u8>) -> Reply {
        Reply {
            status,
            body: Bytes::from(body),
            content_type: JSON,
            headers: HeaderMap::new(),
            precompressed: None,
        }
    }

    /// A 200 whose body is the same for the life of the process.
    pub fn asset(
        content_type: &'static str,
        body: &'static crate::encoding::StaticBody,
        cache_control: &'static str,
    ) -> Reply {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(cache_control),
        );
        Reply {
            status: StatusCode::OK,
            body: Bytes::from_static(body.bytes()),
            content_type,
            headers,
            precompressed: Some(body),
        }
    }

    /// A PDF (200) shown in the browser, saved as its file name (`estimate-12.pdf`: letters,
    /// digits, `-` and `.` only, so it needs no quoting beyond the quotes), with its strong
    /// `ETag`. `Cache-Control: private, no-cache`: a browser may keep it but asks again
    /// each time (`If-None-Match`, a 304 when unchanged), so a revoked link or a changed
    /// record is seen at once, and no shared cache keeps it.
    pub fn pdf(pdf: crate::documents::pdfs::Pdf) -> Reply {
        let mut headers = HeaderMap::new();
        let file_name = &pdf.file_name;
        if let Ok(value) = HeaderValue::from_str(&format!("inline; filename=\"{file_name}\"")) {
            headers.insert(header::CONTENT_DISPOSITION, value);
        }
        if let Ok(value) = HeaderValue::from_str(&pdf.etag) {
            headers.insert(header::ETAG, value);
        }
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache"),
        );
        Reply {
            status: StatusCode::OK,
            // The cache's bytes themselves, not a copy.
            body: Bytes::from_owner(pdf.bytes),
            content_type: "application/pdf",
            headers,
            precompressed: None,
        }
    }

    /// An HTML page for a person (the client's pages), with the headers API.md §12 asks
    /// of them: never stored, never indexed, no referrer, no framing, and a
    /// Content-Security-Policy that allows the page's own stylesheet and nothing else.
    pub fn page(status: StatusCode, html: String) -> Reply {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            (header::CACHE_CONTROL, "no-store"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::X_FRAME_OPTIONS, "DENY"),
            (
                header::CONTENT_SECURITY_POLICY,
                crm_render::page::CONTENT_SECURITY_POLICY,
            ),
        ] {
            headers.insert(name, HeaderValue::from_static(value));
        }
        headers.insert(
            "x-robots-tag",
            HeaderValue::from_static("noindex, nofollow"),
        );
        Reply {
            status,
            body: Bytes::from(html),
            content_type: "text/html; charset=utf-8",
            headers,
            precompressed: None,
        }
    }

    /// One record (200), with its `ETag`.
    pub fn ok<T: Serialize>(data: &T, message: &str) -> Result<Reply, ApiError> {
        Reply::record(StatusCode::OK, data, message)
    }

    /// A created record (201), with its `ETag`.
    pub fn created<T: Serialize>(data: &T, message: &str) -> Result<Reply, ApiError> {
        Reply::record(StatusCode::CREATED, data, message)
    }

    /// A single-record answer: the envelope, and the strong `ETag` of its `data` (the one
    /// a write compares `If-Match` with, [`crm_store_pg::etag`]).
    fn record<T: Serialize>(
        status: StatusCode,
        data: &T,
        message: &str,
    ) -> Result<Reply, ApiError> {
        // `data` is serialised once, in place in the envelope: its bytes are the envelope's
        // `data` member and what the ETag digests (the same bytes as
        // `encode(&One { data, message })` writes).
        const OPEN: &[u8] = b"{\"data\":";
        let mut body = Vec::with_capacity(FIRST_CAPACITY);
        body.extend_from_slice(OPEN);
        let mut body = encode_into(body, data)?;
        let etag = crm_store_pg::etag_of_json(&body[OPEN.len()..]);
        body.extend_from_slice(b",\"message\":");
        let mut body = encode_into(body, &message)?;
        body.push(b'}');
        let mut reply = Reply::json(status, body);
        if let Ok(value) = HeaderValue::from_str(&etag) {
            reply.headers.insert(header::ETAG, value);
        }
        Ok(reply)
    }

    /// A page of records with its `meta` (200).
    pub fn list<T: Serialize>(
        listed: &Listed<T>,
        page: Page,
        message: &str,
    ) -> Result<Reply, ApiError> {
        let mut meta = page.meta(listed.total);
        if let Some(number) = listed.cursors.page {
            meta.current_page = number;
        }
        meta.next_cursor.clone_from(&listed.cursors.next);
        meta.prev_cursor.clone_from(&listed.cursors.prev);
        meta.truncated = listed.truncated;
        let capacity = FIRST_CAPACITY + listed.items.len() * CAPACITY_PER_ITEM;
        Ok(Reply::json(
            StatusCode::OK,
            encode_into(
                Vec::with_capacity(capacity),
                &Many {
                    data: &listed.items,
                    meta,
                    message,
                },
            )?,
        ))
    }

    /// A deletion: `{"data": {"id": N}}` (200).
    pub fn deleted(id: i64, message: &str) -> Result<Reply, ApiError> {
        Ok(Reply::json(
            StatusCode::OK,
            encode(&One {
                data: &Id { id },
                message,
            })?,
        ))
    }
}

/// The frames a response body is handed to the connection in. hyper takes a frame only
/// when its write buffer (the read buffer cap, 32 KiB by default) has room, so a large body
/// leaves this process at the pace the client reads it, and what holds on to the body
/// (the request's place among its key's requests in progress) is let go only when the
/// connection has taken its last frame.
pub const FRAME: usize = 16 * 1024;

/// A response body: bytes handed out in [`FRAME`]-sized frames (slices of one buffer, no
/// copies), with an exact length (`Content-Length`), and what must live until the last
/// frame is taken.
#[derive(Debug)]
pub struct Outgoing {
    rest: Bytes,
    hold: Option<crate::limits::InFlightGuard>,
}

impl Outgoing {
    /// `bytes` as a body.
    pub fn new(bytes: Bytes) -> Outgoing {
        Outgoing {
            rest: bytes,
            hold: None,
        }
    }

    /// The same body, holding `guard` until its last frame is taken (or the body is
    /// dropped with the connection).
    pub fn holding(mut self, guard: Option<crate::limits::InFlightGuard>) -> Outgoing {
        self.hold = guard;
        self
    }

    /// The bytes not yet handed out.
    pub fn remaining(&self) -> &Bytes {
        &self.rest
    }
}

impl http_body::Body for Outgoing {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if this.rest.is_empty() {
            this.hold = None;
            return std::task::Poll::Ready(None);
        }
        let frame = this.rest.split_to(this.rest.len().min(FRAME));
        if this.rest.is_empty() {
            this.hold = None;
        }
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(frame))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.rest.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_carry_integer_meta_members() {
        let listed = Listed {
            items: vec![1, 2],
            total: 52,
            cursors: Default::default(),
            truncated: false,
        };
        let reply = Reply::list(
            &listed,
            Page { page: 2, limit: 25 },
            "Things retrieved successfully.",
        )
        .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"data": [1, 2], "meta": {"current_page": 2, "per_page": 25, "total": 52, "last_page": 3, "next_cursor": null, "prev_cursor": null}, "message": "Things retrieved successfully."})
        );
    }

    #[test]
    fn a_record_answer_is_the_envelope_serde_writes_with_the_etag_of_its_data() {
        #[derive(Serialize)]
        struct Thing {
            id: i64,
            title: &'static str,
            tags: Vec<&'static str>,
        }
        let thing = Thing {
            id: 3,
            title: "Caf\u{e9} \"quoted\" \\ \n line",
            tags: vec!["a", "b"],
        };
        let message = "Thing \"created\" successfully.";
        let reply = Reply::created(&thing, message).unwrap();
        assert_eq!(
            reply.body,
            serde_json::to_vec(&One {
                data: &thing,
                message
            })
            .unwrap()
        );
        assert_eq!(
            reply.headers[header::ETAG].to_str().unwrap(),
            crm_store_pg::etag(&thing).unwrap()
        );
        assert_eq!(reply.status, StatusCode::CREATED);
    }

    #[test]
    fn deletions_answer_with_the_id() {
        let reply = Reply::deleted(7, "Note deleted successfully.").unwrap();
        let json: serde_json::Value = serde_json::from_slice(&reply.body).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"data": {"id": 7}, "message": "Note deleted successfully."})
        );
        assert_eq!(reply.status, StatusCode::OK);
    }
}
