//! The text rules every output shares.
//!
//! Record text comes from API clients and can hold anything: CR, LF, CRLF, lone CRs,
//! tabs and other control characters. [`clean`] makes it plain text once, when the
//! [`crate::Document`] is built: line ends become `\n`, tabs spaces, other control
//! characters are dropped (they render as nothing useful anywhere and a bare CR reached
//! SMTP DATA once: issue 33). [`crlf`] then gives an email part CRLF line ends only.

/// `text` with `\r\n`, `\r` and `\n` as `\n`, tabs (and the vertical tab, form feed) as
/// spaces, and every other control character (C0, DEL, C1) removed.
pub fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\n' => out.push('\n'),
            // Unicode's line and paragraph separators are line ends too (a mail reader would
            // show them as one; the PDF has no glyph for them).
            '\u{2028}' | '\u{2029}' | '\u{85}' => out.push('\n'),
            '\t' | '\u{0B}' | '\u{0C}' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// `text` on one line: [`clean`], with line ends as spaces and the ends trimmed (names,
/// units, labels).
pub fn one_line(text: &str) -> String {
    clean(text).replace('\n', " ").trim().to_owned()
}

/// `text` with CRLF line ends only: every `\r\n`, lone `\r` and lone `\n` becomes `\r\n`.
pub fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\r\n");
            }
            '\n' => out.push_str("\r\n"),
            c => out.push(c),
        }
    }
    out
}

/// Whether every CR and LF of `text` is part of a CRLF pair.
pub fn is_crlf_only(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().all(|(i, b)| match b {
        b'\r' => bytes.get(i + 1) == Some(&b'\n'),
        b'\n' => i > 0 && bytes[i - 1] == b'\r',
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_line_end_becomes_one_newline() {
        assert_eq!(clean("a\r\nb\rc\nd\u{2028}e"), "a\nb\nc\nd\ne");
        assert_eq!(clean("a\r\r\nb"), "a\n\nb");
    }

    #[test]
    fn tabs_become_spaces_and_other_controls_disappear() {
        assert_eq!(clean("a\tb\u{0}c\u{1b}[31md\u{7f}\u{9b}e"), "a bc[31mde");
    }

    #[test]
    fn one_line_joins_lines_and_trims() {
        assert_eq!(one_line("  Acme\r\nLtd \n"), "Acme Ltd");
    }

    #[test]
    fn crlf_leaves_no_bare_cr_or_lf() {
        let out = crlf("a\rb\nc\r\nd\n\re");
        assert_eq!(out, "a\r\nb\r\nc\r\nd\r\n\r\ne");
        assert!(is_crlf_only(&out));
        assert!(!is_crlf_only("a\rb"));
        assert!(!is_crlf_only("a\nb"));
        assert!(!is_crlf_only("\n"));
    }
}
