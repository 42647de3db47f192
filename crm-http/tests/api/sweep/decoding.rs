//! Bodies that cannot be decoded — JSON that is not an object or not JSON, url-encoded and
//! multipart bodies that are not UTF-8 or nest too deep, broken multipart framing, other
//! content types, bodies past 1 MiB — each carrying the valid base around its defect, so
//! that only the defect can be what is refused.

use serde_json::json;

use super::body::{Case, Expect, MIB, Sent, json_sent, multipart_bytes, pairs, status, urlencoded};
use super::msg;
use super::target::Target;

const JSON_TYPE: Option<&str> = Some("application/json");
const FORM_TYPE: Option<&str> = Some("application/x-www-form-urlencoded");
const MULTIPART_TYPE: &str = "multipart/form-data; boundary=B0undary";

impl Target {
    /// Bodies that cannot be decoded: each carries the valid base around its defect.
    pub fn decoding_cases(&self, cases: &mut Vec<Case>) {
        self.undecodable_json(cases);
        self.undecodable_form(cases);
        self.undecodable_multipart(cases);
        self.other_types_and_sizes(cases);
    }

    /// A body of these bytes with this content type.
    fn raw_case(&self, label: &str, ct: Option<&str>, body: Vec<u8>, expect: Expect) -> Case {
        self.case(label, Sent::Raw(ct.map(str::to_owned), body), expect)
    }

    /// The base as JSON text, and its members without the braces.
    fn base_json(&self) -> (String, String) {
        let text = serde_json::to_string(&self.base).expect("json");
        let inner = text[1..text.len() - 1].to_owned();
        (text, inner)
    }

    /// JSON that is not an object, or not JSON.
    fn undecodable_json(&self, cases: &mut Vec<Case>) {
        let (base_json, inner) = self.base_json();
        let sep = if inner.is_empty() { "" } else { "," };
        for (label, body) in [
            ("JSON array body", format!("[{base_json}]")),
            ("JSON string body", "\"x\"".to_owned()),
            ("JSON null body", "null".to_owned()),
            ("JSON number body", "42".to_owned()),
            ("JSON boolean body", "true".to_owned()),
        ] {
            let expect = status(400, msg::NOT_OBJECT);
            cases.push(self.raw_case(label, JSON_TYPE, body.into_bytes(), expect));
        }
        // The base's members, then `zzz` with this value.
        let member = |value: &str| format!("{{{inner}{sep}\"zzz\":{value}}}").into_bytes();
        let mut bad_json: Vec<(&str, Vec<u8>)> = vec![
            (
                "truncated JSON",
                base_json.as_bytes()[..base_json.len() - 1].to_vec(),
            ),
            ("trailing garbage", format!("{base_json}x").into_bytes()),
            (
                "two objects",
                format!("{base_json}{base_json}").into_bytes(),
            ),
            (
                "trailing comma",
                format!("{{{inner}{sep}\"zzz\":1,}}").into_bytes(),
            ),
            (
                "single quotes",
                format!("{{{inner}{sep}'zzz':1}}").into_bytes(),
            ),
            ("NaN literal", member("NaN")),
            ("Infinity literal", member("Infinity")),
            ("leading zero", member("01")),
            ("hex number", member("0x10")),
            ("bad escape", member("\"\\x41\"")),
            ("lone high surrogate", member("\"\\ud800\"")),
            ("lone low surrogate", member("\"a\\udc00b\"")),
            ("unescaped control character", member("\"a\u{1}b\"")),
            ("comment", format!("/* c */{base_json}").into_bytes()),
            (
                "byte order mark",
                [b"\xEF\xBB\xBF".as_slice(), base_json.as_bytes()].concat(),
            ),
            (
                "unquoted key",
                format!("{{{inner}{sep}zzz:1}}").into_bytes(),
            ),
            (
                "200 deep",
                member(&format!("{}1{}", "[".repeat(200), "]".repeat(200))),
            ),
            (
                "unterminated string",
                format!("{{{inner}{sep}\"zzz\":\"abc}}").into_bytes(),
            ),
        ];
        let mut invalid_utf8 = format!("{{{inner}{sep}\"zzz\":\"a").into_bytes();
        invalid_utf8.extend_from_slice(b"\xff\xfe\"}");
        bad_json.push(("invalid UTF-8 in a string", invalid_utf8));
        let mut invalid_utf8_key = format!("{{{inner}{sep}\"").into_bytes();
        invalid_utf8_key.extend_from_slice(b"\xc3\x28\":1}");
        bad_json.push(("invalid UTF-8 in a key", invalid_utf8_key));
        let utf16 = base_json.encode_utf16().flat_map(u16::to_le_bytes);
        bad_json.push(("UTF-16 body", utf16.collect()));
        for (label, body) in bad_json {
            cases.push(self.raw_case(label, JSON_TYPE, body, status(400, msg::NOT_JSON)));
        }
    }

    /// Url-encoded bodies that are not UTF-8 or nest too deep.
    fn undecodable_form(&self, cases: &mut Vec<Case>) {
        let form = urlencoded(&pairs(&self.base));
        let amp = if form.is_empty() { "" } else { "&" };
        let not_utf8 = status(400, msg::NOT_UTF8);
        let too_deep = status(400, msg::TOO_DEEP);
        for (label, tail, expect) in [
            (
                "raw 0xFF byte in a value",
                b"zzz=a\xffb".to_vec(),
                &not_utf8,
            ),
            ("raw 0xFF byte in a key", b"z\xffz=1".to_vec(), &not_utf8),
            ("%FF in a value", b"zzz=%FF".to_vec(), &not_utf8),
            ("overlong %C0%AF", b"zzz=%C0%AF".to_vec(), &not_utf8),
            (
                "encoded surrogate %ED%A0%80",
                b"zzz=%ED%A0%80".to_vec(),
                &not_utf8,
            ),
            ("invalid %C3%28 in a key", b"%C3%28=1".to_vec(), &not_utf8),
            (
                "key 30 brackets deep",
                format!("a{}=1", "[b]".repeat(30)).into_bytes(),
                &too_deep,
            ),
            (
                "encoded key 30 brackets deep",
                format!("a{}=1", "%5Bb%5D".repeat(30)).into_bytes(),
                &too_deep,
            ),
            (
                "key 30 empty brackets deep",
                format!("a{}=1", "[]".repeat(30)).into_bytes(),
                &too_deep,
            ),
        ] {
            let body = [form.as_slice(), amp.as_bytes(), tail.as_slice()].concat();
            let label = format!("form {label}");
            cases.push(self.raw_case(&label, FORM_TYPE, body, expect.clone()));
        }
    }

    /// Multipart bodies with a missing or wrong boundary, broken framing, bytes that are not
    /// UTF-8, or a key nested too deep.
    fn undecodable_multipart(&self, cases: &mut Vec<Case>) {
        // Always one part at least, so that no case is an empty (hence acceptable) body.
        let mut base_pairs = pairs(&self.base);
        base_pairs.push(("zzz".to_owned(), "1".to_owned()));
        let parts: Vec<(&[u8], &[u8])> = base_pairs
            .iter()
            .map(|(k, v)| (k.as_bytes(), v.as_bytes()))
            .collect();
        let valid = multipart_bytes(&parts, true);
        let malformed = status(400, msg::MALFORMED_MULTIPART);
        let no_boundary = status(400, msg::NO_BOUNDARY);
        let mut push = |label: &str, ct: &str, body: Vec<u8>, expect: Expect| {
            cases.push(self.raw_case(label, Some(ct), body, expect));
        };
        let form_data = "multipart/form-data";
        push(
            "multipart without boundary",
            form_data,
            valid.clone(),
            no_boundary,
        );
        let empty_boundary = "multipart/form-data; boundary=";
        let any_400 = Expect::Status(400, None);
        push(
            "multipart with empty boundary",
            empty_boundary,
            valid.clone(),
            any_400,
        );
        let other = "multipart/form-data; boundary=Other";
        let wrong_boundary = malformed.clone();
        push(
            "multipart with another boundary",
            other,
            valid.clone(),
            wrong_boundary,
        );
        let ct = MULTIPART_TYPE;
        let unclosed = multipart_bytes(&parts, false);
        push("multipart not closed", ct, unclosed, malformed.clone());
        let garbage = b"hello world".to_vec();
        push("multipart garbage", ct, garbage, malformed.clone());
        let truncated = valid[..valid.len().saturating_sub(30).max(1)].to_vec();
        push("multipart cut short", ct, truncated, malformed);
        let mut with_bad_utf8 = parts.clone();
        with_bad_utf8.push((b"zzz", b"a\xffb"));
        let body = multipart_bytes(&with_bad_utf8, true);
        push(
            "multipart raw 0xFF byte in a value",
            ct,
            body,
            status(400, msg::NOT_UTF8),
        );
        let deep_key = format!("a{}", "[b]".repeat(30));
        let mut with_deep = parts.clone();
        with_deep.push((deep_key.as_bytes(), b"1"));
        let body = multipart_bytes(&with_deep, true);
        push(
            "multipart key 30 brackets deep",
            ct,
            body,
            status(400, msg::TOO_DEEP),
        );
    }

    /// The base under content types the service does not read, and bodies past 1 MiB.
    fn other_types_and_sizes(&self, cases: &mut Vec<Case>) {
        let (base_json, _) = self.base_json();
        let unsupported = status(415, msg::UNSUPPORTED);
        for ct in [
            None,
            Some("text/plain"),
            Some("application/xml"),
            Some("text/xml"),
            Some("application/octet-stream"),
            Some("text/html"),
            Some("application/x-www-form-urlencodedx"),
            Some("multipart/mixed; boundary=B0undary"),
            Some("application/jsonp"),
            Some("json"),
        ] {
            let label = format!("content type {ct:?}");
            let body = base_json.clone().into_bytes();
            cases.push(self.raw_case(&label, ct, body, unsupported.clone()));
        }
        let xml = b"<?xml version=\"1.0\"?><note><title>x</title></note>".to_vec();
        let xml_type = Some("application/xml");
        cases.push(self.raw_case("XML body", xml_type, xml, unsupported));
        let too_large = status(413, msg::TOO_LARGE);
        let mut just_over = base_json.into_bytes();
        just_over.resize(MIB + 1, b' ');
        let label = "JSON 1 MiB + 1 byte (whitespace)";
        cases.push(self.raw_case(label, JSON_TYPE, just_over, too_large.clone()));
        let mut big = self.base.clone();
        big["zzz"] = json!("p".repeat(MIB));
        for sent in [
            json_sent(&big),
            Sent::Form(pairs(&big)),
            Sent::Multipart(pairs(&big)),
        ] {
            let label = format!("{} over 1 MiB", sent.encoding());
            cases.push(self.case(&label, sent, too_large.clone()));
        }
    }
}
