//! Request bodies and query strings → one [`RawMap`].
//!
//! Three body encodings carry the same field names:
//! - `application/x-www-form-urlencoded` with PHP/Laravel bracket syntax
//!   (`tags[]=a&items[0][description]=Design`); brackets may be raw or percent-encoded
//!   (`%5B`, `%5b`); indices may come in any order and with gaps (ordered by index);
//! - `application/json`, or any `application/…+json` (arrays as JSON arrays; numbers kept
//!   as their exact text);
//! - `multipart/form-data` with the same bracket names (file parts are ignored).
//!
//! Query strings use the same bracket parser. A body with any other content type, or with
//! none, is a 415; malformed JSON a 400; over [`MAX_BODY`] a 413.
//!
//! A body is read by [`read_limited`] into one buffer, copying each frame as it arrives:
//! a frame is a slice of the connection's read buffer, and keeping frames (as collecting
//! them would) keeps their whole buffers alive, so a body trickled one byte per packet
//! would cost kilobytes per byte. The memory a body holds is bounded by the limit.
//!
//! One exception: a body labelled `application/x-www-form-urlencoded` whose first
//! non-blank character is `{` or `[` is read as JSON. That label is what `curl -d` sends
//! when no type is given, so a client posting JSON that way meant JSON; read as a form it
//! would be one nonsense field name, and the answer ("The items field is required.") would
//! point at the wrong cause. No form field name starts with a bracket.

use std::collections::BTreeMap;

use bytes::{Buf, Bytes};
use crm_core::input::{RawMap, RawValue};
use http_body_util::BodyExt;

use crate::error::ApiError;

/// The largest accepted body (1 MiB).
pub const MAX_BODY: usize = 1 << 20;

/// The first allocation for a body of unknown length (it grows as frames arrive).
const FIRST_CHUNK: usize = 16 * 1024;

/// Reads a whole body into one buffer of at most `limit` bytes (413 beyond it), copying each
/// frame as it arrives and dropping it at once. `declared` (the `Content-Length`) sizes the
/// buffer, never beyond `limit`; without it the buffer grows by doubling, capped at `limit`.
pub async fn read_limited<B>(
    body: B,
    declared: Option<u64>,
    limit: usize,
) -> Result<Vec<u8>, ApiError>
where
    B: hyper::body::Body<Data = Bytes>,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let first = declared.map_or(FIRST_CHUNK, |n| {
        usize::try_from(n).unwrap_or(limit).min(limit)
    });
    let mut out: Vec<u8> = Vec::new();
    let mut body = std::pin::pin!(body);
    while let Some(frame) = body.frame().await {
        let frame =
            frame.map_err(|_| ApiError::BadRequest("The request body could not be read."))?;
        let Ok(mut data) = frame.into_data() else {
            continue; // trailers carry no body bytes
        };
        let wanted = out.len().saturating_add(data.remaining());
        if wanted > limit {
            return Err(ApiError::PayloadTooLarge);
        }
        if wanted > out.capacity() {
            let grown = out.capacity().saturating_mul(2).max(first).max(wanted);
            out.reserve_exact(grown.min(limit) - out.len());
        }
        while data.has_remaining() {
            let chunk = data.chunk();
            out.extend_from_slice(chunk);
            let n = chunk.len();
            data.advance(n);
        }
    }
    Ok(out)
}

/// The deepest bracket nesting accepted (`a[b][c]…`).
const MAX_DEPTH: usize = 16;

/// A form field name split into its path: `items[0][rate]` → `["items", "0", "rate"]`,
/// `tags[]` → `["tags", ""]` (an empty segment appends).
fn key_path(key: &str) -> Result<Vec<&str>, ApiError> {
    let (head, mut rest) = match key.find('[') {
        Some(i) => (&key[..i], &key[i..]),
        None => return Ok(vec![key]),
    };
    let mut path = vec![head];
    while let Some(stripped) = rest.strip_prefix('[') {
        let Some(close) = stripped.find(']') else {
            // PHP keeps an unterminated group as part of the name; treat it as opaque text.
            return Ok(vec![key]);
        };
        path.push(&stripped[..close]);
        rest = &stripped[close + 1..];
        if path.len() > MAX_DEPTH {
            return Err(ApiError::BadRequest("The request is too deeply nested."));
        }
    }
    Ok(path)
}

/// A tree being built from bracketed pairs. A branch keeps the index `name[]` appends at:
/// one past its largest integer key (PHP's rule), kept up to date so that appending is not
/// a scan of every key (100,000 `tags[]=x` would take minutes).
#[derive(Debug)]
enum Node {
    Leaf(String),
    Branch(BTreeMap<String, Node>, u64),
}

impl Node {
    fn branch() -> Node {
        Node::Branch(BTreeMap::new(), 0)
    }

    /// Sets `value` at `path` under this node (later pairs win, as in PHP).
    fn insert(&mut self, path: &[&str], value: String) {
        let Node::Branch(children, next) = self else {
            *self = Node::branch();
            return self.insert(path, value);
        };
        let Some((first, rest)) = path.split_first() else {
            return;
        };
        let key = if first.is_empty() {
            next.to_string()
        } else {
            (*first).to_owned()
        };
        if let Some(i) = index_of(&key) {
            *next = (*next).max(i.saturating_add(1));
        }
        if rest.is_empty() {
            children.insert(key, Node::Leaf(value));
        } else {
            children
                .entry(key)
                .or_insert_with(Node::branch)
                .insert(rest, value);
        }
    }

    /// A branch whose keys are all integers becomes a list ordered by index.
    fn into_raw(self) -> RawValue {
        match self {
            Node::Leaf(s) => RawValue::Text(s),
            Node::Branch(children, _) => {
                let indexed: Option<Vec<(u64, &String)>> = children
                    .keys()
                    .map(|k| index_of(k).map(|i| (i, k)))
                    .collect();
                match indexed {
                    Some(mut order) if !children.is_empty() => {
                        order.sort();
                        // Indices 0..n are a plain list; gaps or other starts keep the
                        // indices so that messages can name them (`items.5.rate`).
                        let dense = order.iter().zip(0u64..).all(|((i, _), n)| *i == n);
                        let order: Vec<(u64, String)> =
                            order.into_iter().map(|(i, k)| (i, k.clone())).collect();
                        let mut children = children;
                        let mut elements = order
                            .into_iter()
                            .filter_map(|(i, k)| children.remove(&k).map(|v| (i, v.into_raw())));
                        if dense {
                            RawValue::List(elements.map(|(_, v)| v).collect())
                        } else {
                            RawValue::Indexed(elements.by_ref().collect())
                        }
                    }
                    _ => RawValue::Map(
                        children
                            .into_iter()
                            .map(|(k, v)| (k, v.into_raw()))
                            .collect(),
                    ),
                }
            }
        }
    }
}

/// The integer a key names, if it is one (`"0"`, `"12"`; not `"01"`, `"-1"`, `"a"`).
fn index_of(key: &str) -> Option<u64> {
    if key.is_empty()
        || (key.len() > 1 && key.starts_with('0'))
        || !key.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    key.parse().ok()
}

/// Builds the input from decoded `(name, value)` pairs with bracket syntax.
pub fn from_pairs<I: IntoIterator<Item = (String, String)>>(pairs: I) -> Result<RawMap, ApiError> {
    let mut root = Node::branch();
    for (key, value) in pairs {
        let path = key_path(&key)?;
        if path.first().is_some_and(|h| !h.is_empty()) {
            root.insert(&path, value);
        }
    }
    match root.into_raw() {
        RawValue::Map(map) => Ok(map),
        RawValue::List(items) => Ok(items
            .into_iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v))
            .collect()),
        RawValue::Indexed(items) => {
            Ok(items.into_iter().map(|(i, v)| (i.to_string(), v)).collect())
        }
        other => Ok([("", other)].into_iter().collect()),
    }
}

/// Decodes one `application/x-www-form-urlencoded` component (`+` is a space).
fn decode_component(part: &[u8]) -> Result<String, ApiError> {
    let plus_as_space: Vec<u8> = part
        .iter()
        .map(|&b| if b == b'+' { b' ' } else { b })
        .collect();
    let bytes: Vec<u8> = percent_encoding::percent_decode(&plus_as_space).collect();
    String::from_utf8(bytes).map_err(|_| ApiError::BadRequest("The request is not valid UTF-8."))
}

/// Parses a query string or a form-urlencoded body.
pub fn parse_urlencoded(bytes: &[u8]) -> Result<RawMap, ApiError> {
    let mut pairs = Vec::new();
    for part in bytes.split(|&b| b == b'&').filter(|p| !p.is_empty()) {
        let (key, value) = match part.iter().position(|&b| b == b'=') {
            Some(i) => (&part[..i], &part[i + 1..]),
            None => (part, &b""[..]),
        };
        pairs.push((decode_component(key)?, decode_component(value)?));
    }
    from_pairs(pairs)
}

/// Converts a JSON value, keeping numbers as their exact text.
fn from_json(value: serde_json::Value) -> RawValue {
    match value {
        serde_json::Value::Null => RawValue::Null,
        serde_json::Value::Bool(b) => RawValue::Bool(b),
        serde_json::Value::Number(n) => RawValue::Number(n.to_string()),
        serde_json::Value::String(s) => RawValue::Text(s),
        serde_json::Value::Array(items) => {
            RawValue::List(items.into_iter().map(from_json).collect())
        }
        serde_json::Value::Object(map) => {
            RawValue::Map(map.into_iter().map(|(k, v)| (k, from_json(v))).collect())
        }
    }
}

/// Parses a JSON body, which must be an object.
pub fn parse_json(bytes: &[u8]) -> Result<RawMap, ApiError> {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Object(map)) => {
            Ok(map.into_iter().map(|(k, v)| (k, from_json(v))).collect())
        }
        Ok(_) => Err(ApiError::BadRequest(
            "The request body must be a JSON object.",
        )),
        Err(_) => Err(ApiError::BadJson),
    }
}

/// Parses a multipart body with the given boundary (text parts only).
pub async fn parse_multipart(bytes: Bytes, boundary: String) -> Result<RawMap, ApiError> {
    let stream = futures_util::stream::once(async move { Ok::<Bytes, std::io::Error>(bytes) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut pairs = Vec::new();
    let malformed = |_| ApiError::BadRequest("The multipart body is malformed.");
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let Some(name) = field.name().map(str::to_owned) else {
            continue;
        };
        if field.file_name().is_some() {
            continue;
        }
        // Not `field.text()`: it would replace invalid UTF-8 with U+FFFD and store altered
        // text; a form body with invalid UTF-8 is a 400, and so is a multipart one.
        let bytes = field.bytes().await.map_err(malformed)?;
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|_| ApiError::BadRequest("The request is not valid UTF-8."))?;
        pairs.push((name, text));
    }
    from_pairs(pairs)
}

/// The body's media type, lower-cased, without parameters.
fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Decodes a body according to its `Content-Type`. An empty body is an empty input
/// whatever its type.
pub async fn parse_body(content_type: Option<&str>, bytes: Bytes) -> Result<RawMap, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(RawMap::new());
    }
    let Some(content_type) = content_type else {
        return Err(ApiError::UnsupportedMediaType);
    };
    let media_type = media_type(content_type);
    match media_type.as_str() {
        "application/x-www-form-urlencoded" if looks_like_json(&bytes) => parse_json(&bytes),
        "application/x-www-form-urlencoded" => parse_urlencoded(&bytes),
        // `application/vnd.api+json` and the like are JSON too, as Laravel's `isJson` reads.
        json if json == "application/json"
            || (json.starts_with("application/") && json.ends_with("+json")) =>
        {
            parse_json(&bytes)
        }
        "multipart/form-data" => {
            let boundary = multer::parse_boundary(content_type)
                .map_err(|_| ApiError::BadRequest("The multipart body has no boundary."))?;
            parse_multipart(bytes, boundary).await
        }
        _ => Err(ApiError::UnsupportedMediaType),
    }
}

/// Whether a body's first non-blank byte opens a JSON object or array.
fn looks_like_json(bytes: &[u8]) -> bool {
    matches!(
        bytes.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[')
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::{Full, StreamBody};

    /// A body of data frames.
    type Frames = StreamBody<
        futures_util::stream::Iter<
            std::vec::IntoIter<Result<hyper::body::Frame<Bytes>, std::convert::Infallible>>,
        >,
    >;

    /// A body of the given frames.
    fn frames(parts: Vec<&'static [u8]>) -> Frames {
        let frames: Vec<_> = parts
            .into_iter()
            .map(|p| Ok(hyper::body::Frame::data(Bytes::from_static(p))))
            .collect();
        StreamBody::new(futures_util::stream::iter(frames))
    }

    #[tokio::test]
    async fn a_body_is_read_into_one_buffer_within_its_limit() {
        let read = read_limited(frames(vec![b"ab", b"", b"cd"]), None, 10)
            .await
            .unwrap();
        assert_eq!(read, b"abcd");
        assert!(read.capacity() <= 10, "never beyond the limit");
        let exact = read_limited(Full::new(Bytes::from_static(b"xyz")), Some(3), 10)
            .await
            .unwrap();
        assert_eq!((exact.as_slice(), exact.capacity()), (&b"xyz"[..], 3));
        assert!(matches!(
            read_limited(frames(vec![b"abcdef", b"ghijk"]), None, 10).await,
            Err(ApiError::PayloadTooLarge)
        ));
        // A lying Content-Length does not let a body past the limit either.
        assert!(matches!(
            read_limited(frames(vec![b"abcdefghijk"]), Some(2), 10).await,
            Err(ApiError::PayloadTooLarge)
        ));
    }

    fn t(s: &str) -> RawValue {
        RawValue::text(s)
    }

    fn form(s: &str) -> RawMap {
        parse_urlencoded(s.as_bytes()).unwrap()
    }

    #[test]
    fn brackets_build_lists_and_objects() {
        let raw =
            form("tags[]=a&tags[]=b&items[0][description]=Design&items[0][quantity]=2&name=x");
        assert_eq!(raw.get("tags"), Some(&RawValue::List(vec![t("a"), t("b")])));
        assert_eq!(raw.get("name"), Some(&t("x")));
        let RawValue::List(items) = raw.get("items").unwrap() else {
            panic!("items is a list")
        };
        let RawValue::Map(first) = &items[0] else {
            panic!("item is a map")
        };
        assert_eq!(first.get("description"), Some(&t("Design")));
        assert_eq!(first.get("quantity"), Some(&t("2")));
    }

    #[test]
    fn percent_encoded_brackets_in_either_case_are_brackets() {
        let raw = form("tags%5B%5D=a&tags%5b%5d=b&items%5B0%5D%5Brate%5D=5");
        assert_eq!(raw.get("tags"), Some(&RawValue::List(vec![t("a"), t("b")])));
        assert!(matches!(raw.get("items"), Some(RawValue::List(_))));
    }

    #[test]
    fn indices_are_ordered_by_value_whatever_their_order_and_gaps() {
        let raw = form("items[10][d]=c&items[2][d]=b&items[0][d]=a");
        let RawValue::Indexed(items) = raw.get("items").unwrap() else {
            panic!("indexed list")
        };
        let ds: Vec<_> = items
            .iter()
            .map(|(i, v)| match v {
                RawValue::Map(m) => (*i, m.get("d").cloned()),
                _ => (*i, None),
            })
            .collect();
        assert_eq!(
            ds,
            vec![(0, Some(t("a"))), (2, Some(t("b"))), (10, Some(t("c")))]
        );
        let dense = form("tags[1]=b&tags[0]=a");
        assert_eq!(
            dense.get("tags"),
            Some(&RawValue::List(vec![t("a"), t("b")]))
        );
    }

    #[test]
    fn appending_after_explicit_indices_continues_after_the_largest() {
        let raw = form("users[5]=a&users[]=b");
        assert_eq!(
            raw.get("users"),
            Some(&RawValue::Indexed(vec![(5, t("a")), (6, t("b"))]))
        );
    }

    #[test]
    fn an_empty_bracket_field_is_an_empty_element() {
        let raw = form("tags[]=");
        assert_eq!(raw.get("tags"), Some(&RawValue::List(vec![t("")])));
        let raw = form("tags=");
        assert_eq!(raw.get("tags"), Some(&t("")));
    }

    #[test]
    fn non_integer_keys_stay_an_object() {
        let raw = form("items[a][d]=x");
        assert!(matches!(raw.get("items"), Some(RawValue::Map(_))));
    }

    /// 100,000 appended elements. No timing is asserted (this machine is shared); an append
    /// that rescans the list (quadratic: 5·10⁹ steps here) makes this test run for minutes,
    /// which the test harness reports as slow, while the linear one takes milliseconds.
    #[test]
    fn appending_many_elements_keeps_every_element_in_order() {
        let body = (0..100_000)
            .map(|i| format!("tags[]={i}&"))
            .collect::<String>();
        let raw = parse_urlencoded(body.as_bytes()).unwrap();
        let Some(RawValue::List(items)) = raw.get("tags") else {
            panic!("not a list: {:?}", raw.get("tags").map(|_| ()));
        };
        assert_eq!(items.len(), 100_000);
        assert!(
            items
                .iter()
                .enumerate()
                .all(|(i, item)| *item == t(&i.to_string()))
        );
    }

    #[test]
    fn later_pairs_win() {
        assert_eq!(form("a=1&a=2").get("a"), Some(&t("2")));
    }

    #[test]
    fn plus_and_percent_escapes_decode_in_values() {
        assert_eq!(
            form("title=Dev+%26+Eng").get("title"),
            Some(&t("Dev & Eng"))
        );
    }

    #[test]
    fn nesting_beyond_the_limit_is_a_bad_request() {
        let key = format!("a{}", "[x]".repeat(20));
        assert!(matches!(
            parse_urlencoded(format!("{key}=1").as_bytes()),
            Err(ApiError::BadRequest(_))
        ));
    }

    #[test]
    fn invalid_utf8_is_a_bad_request() {
        assert!(matches!(
            parse_urlencoded(b"a=%FF"),
            Err(ApiError::BadRequest(_))
        ));
        assert!(matches!(
            parse_urlencoded(b"a=\xff"),
            Err(ApiError::BadRequest(_))
        ));
    }

    #[test]
    fn json_numbers_keep_their_exact_text() {
        let raw = parse_json(
            br#"{"rate": 1.005, "n": 100000000000000000000000, "tags": ["a"], "x": null}"#,
        )
        .unwrap();
        assert_eq!(raw.get("rate"), Some(&RawValue::Number("1.005".into())));
        assert_eq!(
            raw.get("n"),
            Some(&RawValue::Number("100000000000000000000000".into()))
        );
        assert_eq!(raw.get("x"), Some(&RawValue::Null));
    }

    #[test]
    fn json_must_be_a_well_formed_object() {
        assert!(matches!(parse_json(b"{"), Err(ApiError::BadJson)));
        assert!(matches!(parse_json(b"[1]"), Err(ApiError::BadRequest(_))));
        let deep = format!("{{\"a\":{}1{}}}", "[".repeat(200), "]".repeat(200));
        assert!(matches!(
            parse_json(deep.as_bytes()),
            Err(ApiError::BadJson)
        ));
    }

    #[tokio::test]
    async fn multipart_uses_the_same_bracket_names() {
        let body = "--B\r\nContent-Disposition: form-data; name=\"tags[]\"\r\n\r\na\r\n--B\r\nContent-Disposition: form-data; name=\"tags[]\"\r\n\r\nb\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n\r\nfile\r\n--B--\r\n";
        let raw = parse_body(Some("multipart/form-data; boundary=B"), Bytes::from(body))
            .await
            .unwrap();
        assert_eq!(raw.get("tags"), Some(&RawValue::List(vec![t("a"), t("b")])));
        assert_eq!(raw.get("f"), None);
    }

    #[tokio::test]
    async fn multipart_text_that_is_not_utf8_is_a_bad_request() {
        let body =
            b"--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\na\xffb\r\n--B--\r\n"
                .to_vec();
        let parsed = parse_body(Some("multipart/form-data; boundary=B"), Bytes::from(body)).await;
        assert!(matches!(
            parsed,
            Err(ApiError::BadRequest("The request is not valid UTF-8."))
        ));
    }

    #[tokio::test]
    async fn other_content_types_are_unsupported_but_empty_bodies_are_fine() {
        assert!(matches!(
            parse_body(Some("text/plain"), Bytes::from("x")).await,
            Err(ApiError::UnsupportedMediaType)
        ));
        assert!(matches!(
            parse_body(None, Bytes::from("x")).await,
            Err(ApiError::UnsupportedMediaType)
        ));
        assert!(
            parse_body(Some("text/plain"), Bytes::new())
                .await
                .unwrap()
                .is_empty()
        );
        assert!(
            parse_body(Some("application/json; charset=utf-8"), Bytes::from("{}"))
                .await
                .unwrap()
                .is_empty()
        );
    }

    #[tokio::test]
    async fn structured_json_types_are_json_and_other_suffixes_are_not() {
        let raw = parse_body(
            Some("application/vnd.api+json"),
            Bytes::from(r#"{"name":"x"}"#),
        )
        .await
        .unwrap();
        assert_eq!(raw.get("name"), Some(&t("x")));
        assert!(matches!(
            parse_body(Some("application/vnd.api+json"), Bytes::from("{")).await,
            Err(ApiError::BadJson)
        ));
        for other in ["text/json+x", "application/jsonx", "text/x+json"] {
            assert!(
                matches!(
                    parse_body(Some(other), Bytes::from("{}")).await,
                    Err(ApiError::UnsupportedMediaType)
                ),
                "{other}"
            );
        }
    }

    #[tokio::test]
    async fn json_sent_with_curls_default_form_type_is_read_as_json() {
        let raw = parse_body(
            Some("application/x-www-form-urlencoded"),
            Bytes::from(r#" {"items":[{"description":"Design","rate":5}]}"#),
        )
        .await
        .unwrap();
        let Some(RawValue::List(items)) = raw.get("items") else {
            panic!("items is a list: {raw:?}")
        };
        assert_eq!(items.len(), 1);
        assert!(matches!(
            parse_body(
                Some("application/x-www-form-urlencoded"),
                Bytes::from("{oops")
            )
            .await,
            Err(ApiError::BadJson)
        ));
        assert!(matches!(
            parse_body(
                Some("application/x-www-form-urlencoded"),
                Bytes::from("[1]")
            )
            .await,
            Err(ApiError::BadRequest(
                "The request body must be a JSON object."
            ))
        ));
        // A form body stays a form body.
        let raw = parse_body(
            Some("application/x-www-form-urlencoded"),
            Bytes::from("name=%7Bx%7D"),
        )
        .await
        .unwrap();
        assert_eq!(raw.get("name"), Some(&t("{x}")));
    }

    #[tokio::test]
    async fn json_without_any_content_type_is_unsupported() {
        assert!(matches!(
            parse_body(None, Bytes::from(r#"{"name":"x"}"#)).await,
            Err(ApiError::UnsupportedMediaType)
        ));
    }
}
