//! Response compression: `br` or `gzip` for text answers of at least [`MIN_SIZE`] bytes when
//! the client's `Accept-Encoding` asks for it (RFC 9110 §12.5.3, with q-values).
//!
//! Envelopes are compressed per answer at a fast setting (a list page of 100 notes shrinks
//! about eight times in well under a millisecond in a release build); bodies that never
//! change (the OpenAPI document, the reference page's script) are compressed once, by the
//! build script at the best setting, and carried by the binary ([`StaticBody`]): no request
//! waits for them (the script's best brotli takes seconds).

use std::io::Write;

use bytes::Bytes;
use http::HeaderValue;

/// Smaller bodies are sent as they are: the saving would not pay for the work.
pub const MIN_SIZE: usize = 1024;

/// Bodies above this size are compressed on the blocking pool rather than on the thread
/// that serves requests.
const INLINE_LIMIT: usize = 32 * 1024;

/// A content coding the service produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    /// Brotli (RFC 7932).
    Brotli,
    /// gzip (RFC 1952).
    Gzip,
}

impl Coding {
    /// The `Content-Encoding` token.
    pub fn token(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
        }
    }
}

/// The coding to answer with for an `Accept-Encoding` header: the one with the higher
/// q-value (Brotli on a tie), `None` when neither is acceptable (absent header, `identity`,
/// `q=0`). `*` stands for any coding not named.
pub fn negotiate(accept: Option<&HeaderValue>) -> Option<Coding> {
    let text = accept?.to_str().ok()?;
    let (mut br, mut gzip, mut any) = (None, None, None);
    for item in text.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        match name.as_str() {
            "br" => br = Some(q),
            "gzip" | "x-gzip" => gzip = Some(q),
            "*" => any = Some(q),
            _ => {}
        }
    }
    let br = br.or(any).unwrap_or(0.0);
    let gzip = gzip.or(any).unwrap_or(0.0);
    if br <= 0.0 && gzip <= 0.0 {
        None
    } else if br >= gzip {
        Some(Coding::Brotli)
    } else {
        Some(Coding::Gzip)
    }
}

/// Whether a body of this media type gains from compression (text, JSON, JavaScript).
pub fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || content_type.starts_with("application/json")
        || content_type.starts_with("application/javascript")
}

/// Compresses `body` at the per-answer setting (fast: brotli 4, gzip 5).
fn encode(coding: Coding, body: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len() / 4 + 64);
    match coding {
        Coding::Brotli => {
            let mut writer = brotli::CompressorWriter::new(&mut out, 4096, 4, 22);
            writer.write_all(body)?;
            writer.flush()?;
        }
        Coding::Gzip => {
            let mut writer = flate2::write::GzEncoder::new(&mut out, flate2::Compression::new(5));
            writer.write_all(body)?;
            writer.finish()?;
        }
    }
    Ok(out)
}

/// Compresses an envelope; `None` if the coding failed (the answer then goes as it is).
pub async fn compress(coding: Coding, body: Bytes) -> Option<Bytes> {
    let encoded = if body.len() <= INLINE_LIMIT {
        encode(coding, &body).ok()
    } else {
        tokio::task::spawn_blocking(move || encode(coding, &body).ok())
            .await
            .ok()
            .flatten()
    };
    encoded.map(Bytes::from)
}

/// A body that is the same for the life of the process, with its compressed forms, made by
/// the build script (`build.rs`) and carried by the binary.
#[derive(Debug)]
pub struct StaticBody {
    bytes: &'static [u8],
    /// Brotli and gzip forms; `None` for a body under [`MIN_SIZE`], which goes as it is.
    compressed: Option<(&'static [u8], &'static [u8])>,
}

impl StaticBody {
    /// `bytes` with its brotli and gzip forms.
    pub const fn new(bytes: &'static [u8], brotli: &'static [u8], gzip: &'static [u8]) -> Self {
        StaticBody {
            bytes,
            compressed: Some((brotli, gzip)),
        }
    }

    /// A body under [`MIN_SIZE`]: never compressed, so it has no compressed forms.
    pub const fn small(bytes: &'static [u8]) -> Self {
        StaticBody {
            bytes,
            compressed: None,
        }
    }

    /// The uncompressed bytes.
    pub fn bytes(&self) -> &'static [u8] {
        self.bytes
    }

    /// The body in `coding` (made at build time: nothing is computed here), or `None` for a
    /// [`small`](Self::small) body.
    pub async fn encoded(&'static self, coding: Coding) -> Option<Bytes> {
        let (brotli, gzip) = self.compressed?;
        Some(Bytes::from_static(match coding {
            Coding::Brotli => brotli,
            Coding::Gzip => gzip,
        }))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Read;

    fn header(value: &str) -> HeaderValue {
        HeaderValue::from_str(value).unwrap()
    }

    #[test]
    fn brotli_is_preferred_on_a_tie_and_q_values_decide_otherwise() {
        assert_eq!(negotiate(Some(&header("gzip, br"))), Some(Coding::Brotli));
        assert_eq!(
            negotiate(Some(&header("gzip, deflate, br;q=0.5"))),
            Some(Coding::Gzip)
        );
        assert_eq!(negotiate(Some(&header("br;q=0, gzip"))), Some(Coding::Gzip));
        assert_eq!(negotiate(Some(&header("*"))), Some(Coding::Brotli));
        assert_eq!(
            negotiate(Some(&header("*;q=0.1, br;q=0"))),
            Some(Coding::Gzip)
        );
    }

    #[test]
    fn nothing_acceptable_means_no_coding() {
        assert_eq!(negotiate(None), None);
        assert_eq!(negotiate(Some(&header("identity"))), None);
        assert_eq!(negotiate(Some(&header("deflate"))), None);
        assert_eq!(negotiate(Some(&header("gzip;q=0, br;q=0"))), None);
        assert_eq!(negotiate(Some(&header("*;q=0"))), None);
    }

    #[test]
    fn only_text_like_types_are_compressed() {
        assert!(compressible("application/json; charset=utf-8"));
        assert!(compressible("text/html; charset=utf-8"));
        assert!(compressible("application/javascript; charset=utf-8"));
        assert!(!compressible("image/png"));
    }

    fn unbrotli(bytes: &[u8]) -> Vec<u8> {
        let mut back = Vec::new();
        brotli::Decompressor::new(bytes, 4096)
            .read_to_end(&mut back)
            .unwrap();
        back
    }

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut back)
            .unwrap();
        back
    }

    #[test]
    fn both_codings_round_trip() {
        let body = br#"{"data":[{"note_title":"hello"}],"message":"ok"}"#.repeat(100);
        let br = encode(Coding::Brotli, &body).unwrap();
        assert_eq!(unbrotli(&br), body);
        assert!(br.len() < body.len() / 10);
        let gz = encode(Coding::Gzip, &body).unwrap();
        assert_eq!(gunzip(&gz), body);
        assert!(gz.len() < body.len() / 10);
    }

    /// Checks that `body`'s forms compressed at build time decode to the bytes it serves
    /// and are under a third of their size (used by the tests of the files that define
    /// such bodies).
    pub(crate) async fn assert_build_time_encodings(body: &'static StaticBody) {
        let br = body.encoded(Coding::Brotli).await.unwrap();
        assert_eq!(unbrotli(&br), body.bytes());
        assert!(br.len() * 3 < body.bytes().len());
        let gz = body.encoded(Coding::Gzip).await.unwrap();
        assert_eq!(gunzip(&gz), body.bytes());
        assert!(gz.len() * 3 < body.bytes().len());
    }
}
