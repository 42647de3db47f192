//! Tag sets: the full new set of a resource's tags, normalised.
//!
//! `tags` is required and must be an array of strings. Surrounding whitespace is trimmed,
//! each tag is normalised to NFC (as all text input is), empty strings are dropped,
//! duplicates are removed keeping the first (compared exactly: `A` and `a` are two tags, a
//! composed and a decomposed `é` one), and the order is the request's. Each tag has at most 100 characters and no HTML; at most 100 tags.

use crate::input::{Form, RawMap, TextRule, text};
use crate::validation::Rejected;

/// The most tags one resource can carry.
pub const MAX_TAGS: usize = 100;

/// A normalised set of tag titles, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TagSet(Vec<String>);

impl TagSet {
    /// Reads `tags` from a request.
    pub fn parse(raw: &RawMap) -> Result<TagSet, Rejected> {
        let mut form = Form::new(raw);
        let mut tags = Vec::new();
        if let Some(items) = form.list("tags", true, MAX_TAGS) {
            for (i, value) in items {
                if let Some(tag) = form.element(&format!("tags.{i}"), value, text(TextRule::TAG)) {
                    tags.push(tag);
                }
            }
        }
        form.finish()?;
        Ok(TagSet::normalise(tags))
    }

    /// Trims, drops empty titles and keeps the first of duplicates.
    pub fn normalise<I: IntoIterator<Item = S>, S: AsRef<str>>(titles: I) -> TagSet {
        let mut out: Vec<String> = Vec::new();
        for t in titles {
            let t = t.as_ref().trim();
            if !t.is_empty() && !out.iter().any(|o| o == t) {
                out.push(t.to_owned());
            }
        }
        TagSet(out)
    }

    /// The titles, in order.
    pub fn titles(&self) -> &[String] {
        &self.0
    }

    /// True when the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawValue;

    fn parse(value: RawValue) -> Result<TagSet, Rejected> {
        let raw: RawMap = [("tags", value)].into_iter().collect();
        TagSet::parse(&raw)
    }

    #[test]
    fn tags_are_trimmed_deduplicated_and_kept_in_order() {
        let t = |s: &str| RawValue::text(s);
        let set = parse(RawValue::List(vec![
            t(" b "),
            t("a"),
            t(""),
            t("b"),
            t("A"),
        ]))
        .unwrap();
        assert_eq!(set.titles(), ["b", "a", "A"]);
    }

    #[test]
    fn tags_that_differ_only_in_normalisation_are_one_tag() {
        let t = |s: &str| RawValue::text(s);
        let set = parse(RawValue::List(vec![t("café"), t("cafe\u{301}"), t("Café")])).unwrap();
        assert_eq!(set.titles(), ["café", "Café"]);
    }

    #[test]
    fn an_empty_array_or_empty_field_clears_the_tags() {
        assert!(parse(RawValue::List(vec![])).unwrap().is_empty());
        assert!(parse(RawValue::text("")).unwrap().is_empty());
    }

    #[test]
    fn missing_tags_or_a_non_array_are_refused() {
        let err = TagSet::parse(&RawMap::new()).unwrap_err();
        assert_eq!(
            err.errors.get("tags"),
            Some(&["The tags field is required.".to_owned()][..])
        );
        let err = parse(RawValue::text("solo")).unwrap_err();
        assert_eq!(
            err.errors.get("tags"),
            Some(&["The tags must be an array.".to_owned()][..])
        );
    }

    #[test]
    fn each_tag_is_checked_for_length_html_and_type() {
        let err = parse(RawValue::List(vec![
            RawValue::text("ok"),
            RawValue::text("x".repeat(101)),
            RawValue::text("<b>bold</b>"),
            RawValue::Number("5".into()),
        ]))
        .unwrap_err();
        assert_eq!(
            err.errors.get("tags.1"),
            Some(&["The tags.1 may not be greater than 100 characters.".to_owned()][..])
        );
        assert_eq!(
            err.errors.get("tags.2"),
            Some(&["The tags.2 must not contain any HTML.".to_owned()][..])
        );
        assert_eq!(
            err.errors.get("tags.3"),
            Some(&["The tags.3 must be a string.".to_owned()][..])
        );
    }
}
