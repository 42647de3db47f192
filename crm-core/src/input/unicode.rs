//! Unicode in text input: every text is normalised to NFC, and one-line fields refuse the
//! characters that print as nothing or reorder what prints around them.
//!
//! - [`nfc`]: canonically equivalent texts (a composed `é` and `e` + U+0301) become the same
//!   characters, so they compare, search and count alike.
//! - [`is_default_ignorable`]: Unicode's `Default_Ignorable_Code_Point` set (Unicode 16),
//!   which holds every bidi control (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069),
//!   the zero-width characters, the soft hyphen, the Hangul fillers, the variation selectors
//!   and the tag characters. Migration 0018's `name_key` removes the same set when it keys
//!   a name for uniqueness (a store test checks that the two agree).
//! - [`has_invisible`]: whether a one-line field must refuse its text: any of that set,
//!   except the joiners, variation selectors and tags inside the sequences where Unicode
//!   gives them a visible meaning (an emoji sequence, a Persian or Indic word, an
//!   ideographic variant, a subdivision flag).

use std::borrow::Cow;

use unicode_normalization::{UnicodeNormalization, is_nfc};

/// `text` in Unicode Normalization Form C (canonical composition); borrowed when it
/// already is (the common case: checking costs one pass and no allocation).
pub fn nfc(text: &str) -> Cow<'_, str> {
    if is_nfc(text) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfc().collect())
    }
}

/// True for the characters of Unicode's `Default_Ignorable_Code_Point` property: those a
/// renderer shows as nothing when it has no special behaviour for them. They include every
/// bidi control character.
pub fn is_default_ignorable(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD // soft hyphen
            | 0x034F // combining grapheme joiner
            | 0x061C // Arabic letter mark (bidi)
            | 0x115F..=0x1160 // Hangul choseong and jungseong fillers
            | 0x17B4..=0x17B5 // Khmer inherent vowels
            | 0x180B..=0x180F // Mongolian free variation selectors and vowel separator
            | 0x200B..=0x200F // zero width space, non-joiner, joiner; LRM, RLM (bidi)
            | 0x202A..=0x202E // bidi embeddings and overrides
            | 0x2060..=0x206F // word joiner, invisible operators, bidi isolates, deprecated
            | 0x3164 // Hangul filler
            | 0xFE00..=0xFE0F // variation selectors 1-16
            | 0xFEFF // zero width no-break space (byte order mark)
            | 0xFFA0 // halfwidth Hangul filler
            | 0xFFF0..=0xFFF8 // unassigned, reserved as ignorable
            | 0x1BCA0..=0x1BCA3 // shorthand format controls
            | 0x1D173..=0x1D17A // musical symbol format controls
            | 0xE0000..=0xE0FFF // tags, variation selectors 17-256, reserved
    )
}

/// Zero width non-joiner and zero width joiner.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Variation selectors 1-16 and 17-256 (the latter for ideographic variants).
fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// The tag characters that spell a subdivision flag's region (`gbsct` for Scotland).
fn is_tag_spec(c: char) -> bool {
    matches!(c, '\u{E0020}'..='\u{E007E}')
}

/// The tag that ends a tag sequence.
const CANCEL_TAG: char = '\u{E007F}';

/// The black flag that a tag sequence follows (🏴).
const BLACK_FLAG: char = '\u{1F3F4}';

/// A character that prints something and is not ASCII: a letter of another script, a mark,
/// an emoji. Joiners and selectors belong between or after such characters, never next to
/// an ASCII letter (`Def\u{200D}ault` is a look-alike, not a sequence).
fn is_visible_non_ascii(c: char) -> bool {
    !c.is_ascii() && !c.is_whitespace() && !c.is_control() && !is_default_ignorable(c)
}

/// Whether the ignorable character `c`, between `before` and `after`, is part of a sequence
/// that Unicode gives a meaning to:
/// - a joiner (ZWNJ, ZWJ) between two visible non-ASCII characters, the left one possibly
///   ending in a variation selector: the eye in a speech bubble (👁 FE0F ZWJ 🗨 FE0F), a
///   ZWNJ between the letters of a Persian word, a ZWJ after a Devanagari virama;
/// - a variation selector right after a visible non-ASCII character (the red heart, ❤ FE0F;
///   an ideographic variant) or after an emoji keycap base `#`, `*`, `0`–`9` (the keycap
///   1 is `1` FE0F 20E3);
/// - a Mongolian free variation selector right after a Mongolian letter;
/// - tag characters after 🏴 that spell a region and end with CANCEL TAG (the flag of
///   Scotland is 🏴 E0067 E0062 E0073 E0063 E0074 E007F).
fn in_meaningful_sequence(before: Option<char>, c: char, after: Option<char>) -> bool {
    if is_joiner(c) {
        let left = before.is_some_and(|b| is_visible_non_ascii(b) || is_variation_selector(b));
        return left && after.is_some_and(is_visible_non_ascii);
    }
    if is_variation_selector(c) {
        return before
            .is_some_and(|b| is_visible_non_ascii(b) || matches!(b, '#' | '*' | '0'..='9'));
    }
    if matches!(c, '\u{180B}'..='\u{180D}' | '\u{180F}') {
        return before
            .is_some_and(|b| matches!(b, '\u{1820}'..='\u{1878}' | '\u{1880}'..='\u{18AA}'));
    }
    if is_tag_spec(c) {
        let left = before.is_some_and(|b| b == BLACK_FLAG || is_tag_spec(b));
        return left && after.is_some_and(|a| a == CANCEL_TAG || is_tag_spec(a));
    }
    if c == CANCEL_TAG {
        return before.is_some_and(is_tag_spec);
    }
    false
}

/// True when `text` holds a character of [`is_default_ignorable`] outside the sequences
/// where it has a meaning: refused in one-line fields (names, titles, tags, units), where
/// an invisible character makes a look-alike (`Default\u{200B}` beside `Default`) and a
/// bidi control reorders what is shown around it (`\u{202E}` turns `exe.pdf` around).
pub fn has_invisible(text: &str) -> bool {
    if !text.chars().any(is_default_ignorable) {
        return false;
    }
    let chars: Vec<char> = text.chars().collect();
    chars.iter().enumerate().any(|(i, &c)| {
        is_default_ignorable(c) && {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            !in_meaningful_sequence(before, c, after)
        }
    })
}
