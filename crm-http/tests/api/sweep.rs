//! The sweeps: every write endpoint (every POST, PUT, PATCH and DELETE of the route table)
//! receives every kind of bad input in every applicable encoding (form, JSON, multipart),
//! and every list endpoint every kind of bad query parameter. Each answer must be a 4xx
//! (400, 404, 409, 413, 415 or 422; never 2xx, never 5xx) with a JSON body whose `message`
//! is a string, a 422 must carry an `errors` object of field names → non-empty arrays of
//! strings, and NOTHING may be written: a checksum of every table is taken before the sweep
//! and compared after each endpoint's requests.
//!
//! The requests are built from a VALID body per endpoint (aimed at real records created
//! first) with exactly one defect each, so a service that let the defect through would
//! write, and the test would see it. The bases themselves are sent last, as a control, and
//! must succeed.
//!
//! What the sweeps know is derived wherever it can be: the route table gives the endpoints
//! (a method, a template, whether it is a list), the served OpenAPI document gives each
//! write's fields and their kinds, each `{id}` route's 404 message and each list's filters
//! and sorts ([`document`]). A target row ([`targets`]) gives only what neither can: the
//! record a write is aimed at, a valid body, and its endpoint's own rules.
//!
//! - [`writes`]: the write sweep, and `If-Match` / `Idempotency-Key` over the same targets;
//! - [`scopes`]: every keyed route with a key of each scope (API.md §15): allowed ones as
//!   today, refused ones a 403 that writes nothing;
//! - [`queries`]: the query-parameter sweep of every list;
//! - [`transport`]: bodies cut short or with broken chunks;
//! - [`target`], [`whole_body`], [`decoding`], [`bads`]: the cases of one write endpoint;
//! - [`body`], [`exchange`], [`verify`], [`checksum`], [`msg`]: sending, judging, counting.

mod bads;
mod body;
mod checksum;
mod decoding;
mod document;
mod exchange;
mod msg;
mod queries;
mod scopes;
mod target;
mod targets;
mod transport;
mod verify;
mod whole_body;
mod world;
mod writes;
