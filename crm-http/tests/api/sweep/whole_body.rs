//! Bodies that miss the required fields whatever else they carry (nothing, unknown or
//! upper-cased names, nulls, blanks, file parts, bracketed JSON keys), and bodies that give
//! a required field twice with a bad value last: each must be refused naming exactly the
//! required fields (or the duplicated one).

use serde_json::{Map, Value, json};

use super::bads::{Kind, bads};
use super::body::{
    ALL, Case, Expect, FORM, JSON, Sent, b_json, encoded, nested_object, pairs, pairs_into,
};
use super::document::Field;
use super::msg;
use super::target::Target;

impl Target {
    /// Bodies that miss the required fields, whatever else they carry.
    pub fn whole_body_cases(&self, cases: &mut Vec<Case>) {
        let required = self.required_fields();
        if required.is_empty() {
            return;
        }
        let expect = Expect::Invalid(
            required
                .iter()
                .map(|f| (f.key.clone(), Some(msg::required(&f.key))))
                .collect(),
        );
        let raw = |label: &str, content_type: &str, bytes: &[u8]| {
            let sent = Sent::Raw(Some(content_type.to_owned()), bytes.to_vec());
            self.case(label, sent, expect.clone())
        };
        cases.push(self.case("no body", Sent::None, expect.clone()));
        let empty = Sent::Json(b"{}".to_vec());
        cases.push(self.case("empty JSON object", empty, expect.clone()));
        cases.push(raw("whitespace JSON body", "application/json", b" \r\n\t "));
        let form = "application/x-www-form-urlencoded";
        cases.push(raw("empty form", form, b""));
        cases.push(raw("form of separators", form, b"&&=&=x&"));
        let multipart = "multipart/form-data; boundary=B0undary";
        cases.push(raw(
            "multipart without parts",
            multipart,
            b"--B0undary--\r\n",
        ));
        let mut bodies = vec![(
            "unknown fields only",
            json!({"foo": "bar", "id": "5", "creator_id": "2", "__proto__": {"polluted": "1"}, "constructor": "x", "FIELD": "x"}),
            ALL,
        )];
        // Upper-cased names are other fields (names are case-sensitive).
        bodies.push(("upper-cased names", self.renamed(str::to_uppercase), ALL));
        if let Some((nulls, blanks)) = nulls_and_blanks(&required) {
            bodies.push(("required fields null", nulls, JSON));
            bodies.push(("required fields blank", blanks, ALL));
        }
        // JSON keys are names, not bracket paths.
        let bracketed = self.renamed(|k| format!("{k}[]"));
        bodies.push(("JSON keys with brackets", bracketed, JSON));
        let deep = json!({"zzz": nested_object(100, json!(1))});
        bodies.push(("deep unknown field", deep, JSON));
        for (label, body, enc) in bodies {
            cases.extend(encoded(
                &self.method,
                &self.path,
                label,
                &body,
                enc,
                &expect,
            ));
        }
        // Multipart file parts are ignored: the required fields sent as files are missing.
        let mut files = Vec::new();
        for (k, v) in pairs(&self.base) {
            files.extend_from_slice(format!("--B0undary\r\nContent-Disposition: form-data; name=\"{k}\"; filename=\"x.txt\"\r\nContent-Type: text/plain\r\n\r\n{v}\r\n").as_bytes());
        }
        files.extend_from_slice(b"--B0undary--\r\n");
        cases.push(raw("every field sent as a file", multipart, &files));
        for field in required {
            self.duplicated_key_cases(field, cases);
        }
    }

    /// The base with each name rewritten by `rename`.
    fn renamed(&self, rename: impl Fn(&str) -> String) -> Value {
        let base = self.base.as_object().expect("object");
        Value::Object(base.iter().map(|(k, v)| (rename(k), v.clone())).collect())
    }

    /// `field` given twice in each encoding, valid first and bad last: the last one wins.
    fn duplicated_key_cases(&self, field: &Field, cases: &mut Vec<Case>) {
        let key = field.key.as_str();
        let dup = bads(key, field.kind, field.required, None)
            .into_iter()
            .find(|b| b.value.is_string() && b.enc & FORM != 0)
            .expect("a text bad value");
        let good = self.base[key].clone();
        let mut rest = self.base.as_object().expect("object").clone();
        rest.remove(key);
        let mut text = serde_json::to_string(&Value::Object(rest.clone())).expect("json");
        text.pop();
        let sep = if rest.is_empty() { "" } else { "," };
        let last = b_json(&dup.value);
        text.push_str(&format!("{sep}\"{key}\":{good},\"{key}\":{last}}}"));
        let label = format!("duplicated {key}, last {}", dup.label);
        let mut form_pairs = pairs(&self.base);
        pairs_into(key, &dup.value, &mut form_pairs);
        for sent in [
            Sent::Json(text.into_bytes()),
            Sent::Form(form_pairs.clone()),
            Sent::Multipart(form_pairs),
        ] {
            cases.push(self.case(&label, sent, dup.expect.clone()));
        }
    }
}

/// The required fields all null, and all blank — or `None` when one of them takes a blank
/// as a value: an empty tag or user set is a valid (clearing) value, not an absent one.
fn nulls_and_blanks(required: &[&Field]) -> Option<(Value, Value)> {
    let mut nulls = Map::new();
    let mut blanks = Map::new();
    for field in required {
        nulls.insert(field.key.clone(), Value::Null);
        let clears = matches!(
            field.kind,
            Kind::Tags
                | Kind::Ids {
                    non_empty: false,
                    ..
                }
        );
        if clears {
            return None;
        }
        blanks.insert(field.key.clone(), json!("  "));
    }
    Some((Value::Object(nulls), Value::Object(blanks)))
}
