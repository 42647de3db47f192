//! Raw request input and the readers that turn it into typed values, collecting errors.
//!
//! The HTTP layer decodes form-urlencoded (bracket syntax), multipart and JSON bodies, and
//! query strings, into one shape: a [`RawMap`] of [`RawValue`]s. Commands are parsed from
//! that shape with a [`Form`], which reads each field once, records every failure with its
//! Laravel-style message, and remembers the ids that must still be checked in the database.
//!
//! Conventions (as Laravel's middleware and rules have them):
//! - Text is trimmed and normalised to NFC; an empty text or `null` counts as absent.
//! - A field sent empty is distinguished from one not sent at all only by PATCH commands
//!   ([`Patch`]): absent means "leave unchanged", sent empty means "clear".
//! - Numbers may be text or JSON numbers; text fields refuse numbers, booleans, arrays and
//!   objects ("must be a string").
//! - For an array field, `[]`, an empty text (`name=`) or only empty elements mean the
//!   empty list; empty elements are skipped, and positions in messages are the original
//!   ones (`users.2`).
//!
//! The module is split by concept, everything re-exported here:
//! - `raw.rs`: the raw input values ([`RawMap`], [`RawValue`]);
//! - `patch.rs`: [`Patch`], what a PATCH does with a field;
//! - `text.rs`: the text rules ([`TextRule`], HTML and control characters);
//! - `unicode.rs`: NFC normalisation ([`nfc`]) and the invisible and bidi control
//!   characters one-line fields refuse ([`has_invisible`], [`is_default_ignorable`]);
//! - `form.rs`: the [`Form`] collector;
//! - `read.rs`: the readers of one value ([`read_text`], [`read_id`], [`read_money`], …);
//! - [`Choice`] and [`UnknownChoice`] are defined in [`crate::choice`] and re-exported here.

mod form;
mod patch;
mod raw;
mod read;
mod text;
mod unicode;

pub use crate::choice::{Choice, UnknownChoice};
pub use form::{Form, Presence};
pub use patch::Patch;
pub use raw::{RawMap, RawValue};
pub use read::{
    parse_date, read_choice, read_date, read_exchange_rate, read_id, read_integer, read_money,
    read_money_input, read_money_input_non_negative, read_money_input_positive,
    read_money_non_negative, read_money_positive, read_percent_0_100, read_quantity, read_str,
    read_text, read_unit_rate, text,
};
pub use text::{TextRule, contains_html, has_forbidden_control};
pub use unicode::{has_invisible, is_default_ignorable, nfc};

#[cfg(test)]
pub(crate) mod test_input;
#[cfg(test)]
mod tests;
