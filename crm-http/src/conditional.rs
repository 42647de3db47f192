//! Safe retries and safe concurrent edits (API.md §11), for every route of the table at
//! once: `Idempotency-Key` on `POST`, `If-Match` on `PATCH`, `PUT` and `DELETE`,
//! `If-None-Match` on `GET` (and `HEAD`). Handlers know nothing of them.
//!
//! - A request with none of these headers runs its handler as before.
//! - `Idempotency-Key`: the key is checked (1 to 255 visible ASCII characters, else 422),
//!   the request is digested (`fingerprint`) and the key claimed before the handler runs
//!   ([`crm_store_pg::Store::claim`]): an answer stored for the key is given again
//!   (`Idempotent-Replayed: true`), another request's is refused (422), a request in
//!   progress with it too (409); otherwise the handler runs inside
//!   [`crm_store_pg::Store::within`] with the ticket, and its answer (unless 5xx) is stored
//!   in the transaction of its effect, which commits only then; a refusal
//!   ([`ApiError::is_refusal`]: 422, 404, 409), which has no effect, is stored after its
//!   transaction rolled back ([`crm_store_pg::Store::record_refusal`]).
//! - `If-Match`: parsed here (a malformed list is a 400 naming the header) and compared by
//!   the write under its row lock (412).
//! - `If-None-Match`: a single-record answer whose `ETag` it names becomes a 304 with no
//!   body; so does a PDF's, keyed or by a client link (`visit`: the client's pages
//!   take no other condition).
//!
//! **The request digest.** SHA-256 of the method, the route template, the `{id}` segment
//! (percent-decoded) and the parsed query and body in a canonical form: fields sorted by
//! name, a number compared as its text (`2` in JSON is the form's `2`), arrays in order.
//! So the same form sent as JSON, urlencoded or multipart, or with its keys in another
//! order, is the same request; `2` and `2.0`, or `true` and `1`, are not.

use bytes::Bytes;
use crm_core::activity::Actor;
use crm_core::ids::ApiKeyId;
use crm_core::input::{RawMap, RawValue};
use crm_core::validation::FieldErrors;
use crm_store_pg::{Answer, Claim, Claimed, Conditions, IfMatch};
use http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use percent_encoding::percent_decode_str;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, IDEMPOTENCY_KEY};
use crate::response::Reply;
use crate::router::{self, Given, Route};
use crate::routes::{Env, Req, Visit};

/// The header of a replayed answer.
pub const REPLAYED: &str = "idempotent-replayed";

/// Runs an authenticated request with the conditions its headers ask for, its writes made
/// by its key and the key's user (the actor of their activity entries, API.md §21).
pub(crate) async fn run(
    env: &Env<'_>,
    route: &'static Route,
    req: Req<'_>,
    headers: &HeaderMap,
    api_key: ApiKeyId,
) -> Result<Reply, ApiError> {
    let actor = Actor::Key {
        key: api_key,
        user: req.ctx.actor,
    };
    env.store
        .acting(actor, conditioned(env, route, req, headers, api_key))
        .await
}

/// [`run`] within the actor's scope.
async fn conditioned(
    env: &Env<'_>,
    route: &'static Route,
    req: Req<'_>,
    headers: &HeaderMap,
    api_key: ApiKeyId,
) -> Result<Reply, ApiError> {
    let claim = if route.method == Method::POST {
        idempotency_key(headers)?.map(|key| Claim {
            api_key: api_key.get(),
            key,
            fingerprint: fingerprint(route, &req),
        })
    } else {
        None
    };
    let if_match = if matches!(route.method, Method::PATCH | Method::PUT | Method::DELETE) {
        entity_tags(headers, header::IF_MATCH, "If-Match")?
    } else {
        None
    };
    let if_none_match = if route.method == Method::GET {
        entity_tags(headers, header::IF_NONE_MATCH, "If-None-Match")?
    } else {
        None
    };
    if claim.is_none() && if_match.is_none() {
        let reply = router::dispatch(route.endpoint, env, Given::Key(req)).await?;
        return Ok(match if_none_match {
            Some(tags) => not_modified(reply, &tags),
            None => reply,
        });
    }
    // Boxed: the conditioned path's future (the claim, the transaction, the answer
    // stored) is many times the plain one's, and every request's future would otherwise
    // be as large and be moved as such (issue 55's profile: `memcpy` of the request's
    // future was a fifth of a page's instructions).
    Box::pin(guarded(env, route, req, claim, if_match)).await
}

/// [`conditioned`] with an idempotency claim or `If-Match`: the handler runs within the
/// store's conditions, and its answer (or refusal) is kept under the claim.
async fn guarded(
    env: &Env<'_>,
    route: &'static Route,
    req: Req<'_>,
    claim: Option<Claim>,
    if_match: Option<IfMatch>,
) -> Result<Reply, ApiError> {
    let ticket = match claim.clone() {
        None => None,
        Some(claim) => match env.store.claim(claim).await? {
            Claimed::Taken(ticket) => Some(ticket),
            Claimed::Replay(answer) => return Ok(replayed(answer)),
            Claimed::KeyReused => return Err(ApiError::IdempotencyKeyReused),
            Claimed::InProgress => return Err(ApiError::IdempotencyInProgress),
        },
    };
    let wants_check = if_match.is_some();
    let claimed = claim;
    let (outcome, pending) = env
        .store
        .within(
            Conditions { ticket, if_match },
            router::dispatch(route.endpoint, env, Given::Key(req)),
        )
        .await;
    match outcome {
        Ok(reply) if reply.status.is_server_error() => {
            pending.rollback().await;
            Ok(reply)
        }
        Ok(_) if wants_check && !pending.precondition_checked() => {
            // A write that does not compare `If-Match` must not succeed with it.
            pending.rollback().await;
            Err(ApiError::Internal(format!(
                "{} {} did not compare If-Match",
                route.method, route.path
            )))
        }
        Ok(reply) => {
            let answer = Answer {
                status: reply.status.as_u16(),
                body: reply.body.to_vec(),
                etag: reply
                    .headers
                    .get(header::ETAG)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned),
            };
            pending.commit(Some(&answer)).await?;
            Ok(reply)
        }
        Err(error) => {
            pending.rollback().await;
            if let Some(claim) = claimed.filter(|_| error.is_refusal()) {
                let answer = Answer {
                    status: error.status().as_u16(),
                    body: error.body(),
                    etag: None,
                };
                // The refusal is the answer either way; failing to store it only means
                // the retry is decided again.
                if let Err(e) = env.store.record_refusal(&claim, &answer).await {
                    tracing::warn!(error = %e, route = route.path, "cannot store a refusal under its idempotency key");
                }
            }
            Err(error)
        }
    }
}

/// Runs a client link's request (API.md §12): a `GET` with `If-None-Match` naming its
/// answer's `ETag` (a PDF's) gets a 304 with no body, as a keyed `GET` does. The link is
/// checked all the same: a revoked one is the 404 page, whatever the tag.
pub(crate) async fn visit(
    env: &Env<'_>,
    route: &'static Route,
    visit: Visit<'_>,
    headers: &HeaderMap,
) -> Result<Reply, ApiError> {
    let if_none_match = if route.method == Method::GET {
        entity_tags(headers, header::IF_NONE_MATCH, "If-None-Match")?
    } else {
        None
    };
    let reply = router::dispatch(route.endpoint, env, Given::Client(visit)).await?;
    Ok(match if_none_match {
        Some(tags) => not_modified(reply, &tags),
        None => reply,
    })
}

/// The stored answer, given again.
fn replayed(answer: Answer) -> Reply {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    let mut reply = Reply::json(status, answer.body);
    reply
        .headers
        .insert(REPLAYED, HeaderValue::from_static("true"));
    if let Some(etag) = answer.etag.and_then(|e| HeaderValue::from_str(&e).ok()) {
        reply.headers.insert(header::ETAG, etag);
    }
    reply
}

/// A 304 with no body (and the `ETag`) when `If-None-Match` names the answer's tag
/// (weak comparison, RFC 9110 §13.1.2); the answer itself otherwise.
fn not_modified(reply: Reply, wanted: &IfMatch) -> Reply {
    let Some(etag) = reply.headers.get(header::ETAG).cloned() else {
        return reply;
    };
    let opaque = |tag: &str| tag.strip_prefix("W/").unwrap_or(tag).to_owned();
    let current = opaque(etag.to_str().unwrap_or_default());
    let named = match wanted {
        IfMatch::Any => true,
        IfMatch::Tags(tags) => tags.iter().any(|t| opaque(t) == current),
    };
    if !named || !reply.status.is_success() {
        return reply;
    }
    // A 304 carries the headers the 200 would have that describe caching (RFC 9110
    // §15.4.5).
    let mut headers = HeaderMap::new();
    headers.insert(header::ETAG, etag);
    if let Some(cache_control) = reply.headers.get(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, cache_control.clone());
    }
    Reply {
        status: StatusCode::NOT_MODIFIED,
        body: Bytes::new(),
        headers,
        ..reply
    }
}

/// The `Idempotency-Key` header: absent, or 1 to 255 visible ASCII characters (sent once),
/// else 422 naming it.
fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let mut values = headers.get_all(IDEMPOTENCY_KEY).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    let bytes = value.as_bytes();
    let valid = values.next().is_none()
        && (1..=255).contains(&bytes.len())
        && bytes.iter().all(u8::is_ascii_graphic);
    match std::str::from_utf8(bytes) {
        Ok(key) if valid => Ok(Some(key.to_owned())),
        _ => Err(ApiError::Invalid(FieldErrors::single(
            IDEMPOTENCY_KEY,
            "The Idempotency-Key header must be 1 to 255 visible ASCII characters.".to_owned(),
        ))),
    }
}

/// An `If-Match` / `If-None-Match` header (every line of it): `*` or a comma-separated
/// list of entity tags (`"…"` or `W/"…"`, RFC 9110 §8.8.3); a malformed one is a 400
/// naming the header.
fn entity_tags(
    headers: &HeaderMap,
    name: header::HeaderName,
    shown: &'static str,
) -> Result<Option<IfMatch>, ApiError> {
    let mut lines = headers.get_all(&name).iter().peekable();
    if lines.peek().is_none() {
        return Ok(None);
    }
    let bad = || ApiError::BadRequest(bad_tags_message(shown));
    let mut tags = Vec::new();
    for line in lines {
        let text = line.to_str().map_err(|_| bad())?;
        for item in list_items(text).map(str::trim) {
            if item.is_empty() {
                continue;
            }
            if item == "*" {
                return Ok(Some(IfMatch::Any));
            }
            let opaque = item.strip_prefix("W/").unwrap_or(item);
            let inner = opaque
                .strip_prefix('"')
                .and_then(|rest| rest.strip_suffix('"'))
                .ok_or_else(bad)?;
            if inner.bytes().any(|b| b == b'"' || !(b.is_ascii_graphic())) {
                return Err(bad());
            }
            tags.push(item.to_owned());
        }
    }
    if tags.is_empty() {
        return Err(bad());
    }
    Ok(Some(IfMatch::Tags(tags)))
}

/// The comma-separated items of a header line, a comma inside a quoted string not
/// separating (an entity tag may hold one: `etagc` includes `,`).
fn list_items(text: &str) -> impl Iterator<Item = &str> {
    let mut quoted = false;
    text.split(move |c: char| {
        if c == '"' {
            quoted = !quoted;
        }
        c == ',' && !quoted
    })
}

fn bad_tags_message(header: &str) -> &'static str {
    match header {
        "If-Match" => "The If-Match header must be * or a list of entity tags.",
        _ => "The If-None-Match header must be * or a list of entity tags.",
    }
}

/// The digest that tells two requests with one idempotency key apart (see the module
/// documentation for what counts as the same request).
pub(crate) fn fingerprint(route: &Route, req: &Req<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    field(&mut out, route.method.as_str().as_bytes());
    field(&mut out, route.path.as_bytes());
    let id = req
        .id
        .map(|raw| percent_decode_str(raw).decode_utf8_lossy().into_owned())
        .unwrap_or_default();
    field(&mut out, id.as_bytes());
    if let Some(sub_id) = req.sub_id {
        field(
            &mut out,
            percent_decode_str(sub_id).decode_utf8_lossy().as_bytes(),
        );
    }
    canonical_map(&mut out, &req.query);
    canonical_map(&mut out, &req.body);
    Sha256::digest(&out).to_vec()
}

/// A length-prefixed byte string.
fn field(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_be_bytes());
    out.extend_from_slice(bytes);
}

fn canonical_map(out: &mut Vec<u8>, map: &RawMap) {
    out.push(b'{');
    // `RawMap` iterates in name order.
    for (name, value) in map.iter() {
        field(out, name.as_bytes());
        canonical_value(out, value);
    }
    out.push(b'}');
}

fn canonical_value(out: &mut Vec<u8>, value: &RawValue) {
    match value {
        RawValue::Null => out.push(b'n'),
        RawValue::Bool(b) => out.extend_from_slice(if *b { b"bt" } else { b"bf" }),
        RawValue::Number(text) | RawValue::Text(text) => {
            out.push(b's');
            field(out, text.as_bytes());
        }
        RawValue::List(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                out.extend_from_slice(&(index as u64).to_be_bytes());
                canonical_value(out, item);
            }
            out.push(b']');
        }
        RawValue::Indexed(items) => {
            out.push(b'[');
            for (index, item) in items {
                out.extend_from_slice(&index.to_be_bytes());
                canonical_value(out, item);
            }
            out.push(b']');
        }
        RawValue::Map(map) => canonical_map(out, map),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    #[test]
    fn idempotency_keys_are_one_to_255_visible_ascii_characters() {
        assert_eq!(idempotency_key(&headers(&[])).unwrap(), None);
        assert_eq!(
            idempotency_key(&headers(&[("idempotency-key", "a-1_B.~")])).unwrap(),
            Some("a-1_B.~".to_owned())
        );
        let long = "k".repeat(255);
        assert!(idempotency_key(&headers(&[("idempotency-key", &long)])).is_ok());
        for bad in ["", "two words", &"k".repeat(256)] {
            assert!(
                matches!(
                    idempotency_key(&headers(&[("idempotency-key", bad)])),
                    Err(ApiError::Invalid(e)) if e.has(IDEMPOTENCY_KEY)
                ),
                "{bad:?}"
            );
        }
        assert!(
            idempotency_key(&headers(&[
                ("idempotency-key", "a"),
                ("idempotency-key", "b")
            ]))
            .is_err()
        );
    }

    #[test]
    fn entity_tag_lists_follow_rfc_9110() {
        let parse =
            |v: &str| entity_tags(&headers(&[("if-match", v)]), header::IF_MATCH, "If-Match");
        assert_eq!(parse("*").unwrap(), Some(IfMatch::Any));
        assert_eq!(
            parse("\"a\", W/\"b\" ,\"c\"").unwrap(),
            Some(IfMatch::Tags(vec![
                "\"a\"".into(),
                "W/\"b\"".into(),
                "\"c\"".into()
            ]))
        );
        // A comma inside a tag belongs to it (RFC 9110 §8.8.3: etagc includes it).
        assert_eq!(
            parse("\"a,b\", W/\",\"").unwrap(),
            Some(IfMatch::Tags(vec!["\"a,b\"".into(), "W/\",\"".into()]))
        );
        for bad in ["a", "\"a", "\"a b\"", ",", "W/a", "\"a,b", "\"a\"b\""] {
            assert!(
                matches!(parse(bad), Err(ApiError::BadRequest(_))),
                "{bad:?}"
            );
        }
        // A weak tag never matches strongly.
        assert!(!IfMatch::Tags(vec!["W/\"a\"".into()]).matches("\"a\""));
    }

    #[test]
    fn the_digest_ignores_the_encoding_and_the_order_of_fields() {
        let route = &crate::router::ROUTES
            .iter()
            .find(|r| r.operation_id == "createNote")
            .unwrap();
        let ctx = crm_store_pg::Ctx {
            actor: crm_core::ids::UserId::new(1).unwrap(),
            today: chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap(),
        };
        let req = |body: RawMap| Req {
            ctx,
            key: crm_core::ids::ApiKeyId::new(1).unwrap(),
            id: None,
            sub_id: None,
            query: RawMap::new(),
            body,
        };
        let json = RawMap::from_iter([
            ("title", RawValue::text("T")),
            ("count", RawValue::Number("2".into())),
            (
                "tags",
                RawValue::List(vec![RawValue::text("a"), RawValue::text("b")]),
            ),
        ]);
        let form = RawMap::from_iter([
            (
                "tags",
                RawValue::List(vec![RawValue::text("a"), RawValue::text("b")]),
            ),
            ("count", RawValue::text("2")),
            ("title", RawValue::text("T")),
        ]);
        assert_eq!(
            fingerprint(route, &req(json.clone())),
            fingerprint(route, &req(form))
        );
        let reordered = RawMap::from_iter([
            ("title", RawValue::text("T")),
            ("count", RawValue::text("2")),
            (
                "tags",
                RawValue::List(vec![RawValue::text("b"), RawValue::text("a")]),
            ),
        ]);
        assert_ne!(
            fingerprint(route, &req(json.clone())),
            fingerprint(route, &req(reordered))
        );
        let other_route = &crate::router::ROUTES
            .iter()
            .find(|r| r.operation_id == "createContract")
            .unwrap();
        assert_ne!(
            fingerprint(route, &req(json.clone())),
            fingerprint(other_route, &req(json))
        );
    }
}
