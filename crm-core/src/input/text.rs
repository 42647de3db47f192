//! Text rules: the limits of a text field ([`TextRule`]) and the checks for HTML and
//! control characters that the text readers apply.

/// Limits of a text field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRule {
    /// The most characters (Unicode scalar values, as `mb_strlen` counts), counted once the
    /// text is normalised to NFC (what is stored is what is counted).
    pub max_chars: usize,
    /// Whether HTML tags are refused.
    pub forbid_html: bool,
    /// Whether the text must be one line: no CR, LF, TAB or Unicode line separator (names,
    /// titles, tags, units end up in email headers, file names and table cells, where a
    /// line break is a different thing: a new header, an SMTP command), and no invisible
    /// or bidi control character outside the sequences that give it a meaning
    /// ([`has_invisible`](super::has_invisible)): these are names a person compares by eye.
    pub one_line: bool,
}

impl TextRule {
    /// Titles and names: 250 characters, no HTML.
    pub const TITLE: TextRule = TextRule {
        max_chars: 250,
        forbid_html: true,
        one_line: true,
    };
    /// Category names: 150 characters, no HTML.
    pub const CATEGORY_NAME: TextRule = TextRule {
        max_chars: 150,
        forbid_html: true,
        one_line: true,
    };
    /// Tags: 100 characters, no HTML.
    pub const TAG: TextRule = TextRule {
        max_chars: 100,
        forbid_html: true,
        one_line: true,
    };
    /// Units of measure: 100 characters.
    pub const UNIT: TextRule = TextRule {
        max_chars: 100,
        forbid_html: false,
        one_line: true,
    };
    /// Short labels such as a payment's method: 100 characters, one line.
    pub const LABEL: TextRule = TextRule {
        max_chars: 100,
        forbid_html: false,
        one_line: true,
    };
    /// Short attributes such as icon classes and adjustment descriptions: 250 characters.
    pub const SHORT: TextRule = TextRule {
        max_chars: 250,
        forbid_html: false,
        one_line: true,
    };
    /// Descriptions, bodies, notes and terms: 65,535 characters, HTML allowed.
    pub const LONG: TextRule = TextRule {
        max_chars: 65_535,
        forbid_html: false,
        one_line: false,
    };
    /// Search terms: 250 characters.
    pub const SEARCH: TextRule = TextRule {
        max_chars: 250,
        forbid_html: false,
        one_line: false,
    };
}

/// True when `text` contains something a browser would read as a tag: `<` followed by a
/// letter, `/`, `!` or `?` (`<b>`, `</p>`, `<!--`, `<?php`, `<img src=x onerror=…`).
/// A lone `<` as in `a < b` is not HTML.
pub fn contains_html(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'/' | b'!' | b'?')))
}

/// True when `text` breaks a line or holds a tab (CR, LF, TAB, and Unicode's line and
/// paragraph separators U+2028 and U+2029, line breaks to every renderer that knows
/// Unicode): refused in one-line fields.
pub(crate) fn breaks_line(text: &str) -> bool {
    text.contains(['\r', '\n', '\t', '\u{2028}', '\u{2029}'])
}

/// True when `text` has a control character other than tab, line feed and carriage
/// return (NUL cannot even be stored by PostgreSQL).
pub fn has_forbidden_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}
