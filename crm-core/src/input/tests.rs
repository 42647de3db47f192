//! Tests of the readers and the form collector.

use chrono::NaiveDate;

use super::*;
use crate::money::Percent;
use crate::references::RefKind;
use crate::validation::FieldErrors;

fn map(pairs: &[(&str, RawValue)]) -> RawMap {
    pairs.iter().cloned().collect()
}

fn t(s: &str) -> RawValue {
    RawValue::text(s)
}

#[test]
fn required_fields_that_are_absent_empty_or_blank_are_reported() {
    let raw = map(&[("a", t("")), ("b", t("   ")), ("c", RawValue::Null)]);
    let mut form = Form::new(&raw);
    for key in ["a", "b", "c", "d"] {
        assert_eq!(form.required(key, text(TextRule::TITLE)), None);
    }
    let rejected = form.finish().unwrap_err();
    assert_eq!(
        rejected.errors.get("d"),
        Some(&["The d field is required.".to_owned()][..])
    );
    assert_eq!(rejected.errors.iter().count(), 4);
}

#[test]
fn text_is_trimmed_and_limited_in_characters_not_bytes() {
    let raw = map(&[("ok", t("  é")), ("long", t(&"é".repeat(151)))]);
    let mut form = Form::new(&raw);
    assert_eq!(
        form.required("ok", text(TextRule::CATEGORY_NAME))
            .as_deref(),
        Some("é")
    );
    assert_eq!(form.required("long", text(TextRule::CATEGORY_NAME)), None);
    let errors = form.finish().unwrap_err().errors;
    assert_eq!(
        errors.get("long"),
        Some(&["The long may not be greater than 150 characters.".to_owned()][..])
    );
}

#[test]
fn html_tags_are_refused_in_titles_but_a_lone_less_than_is_not_html() {
    assert!(contains_html("<b>x</b>"));
    assert!(contains_html("a</p>"));
    assert!(contains_html("<!-- c -->"));
    assert!(contains_html("<img src=x onerror=alert(1)"));
    assert!(!contains_html("a < b and c > d"));
    assert!(!contains_html("x <3"));
    let raw = map(&[("note_title", t("<script>alert(1)</script>"))]);
    let mut form = Form::new(&raw);
    form.required("note_title", text(TextRule::TITLE));
    let errors = form.finish().unwrap_err().errors;
    assert_eq!(
        errors.get("note_title"),
        Some(&["The note title must not contain any HTML.".to_owned()][..])
    );
}

#[test]
fn control_characters_make_text_invalid() {
    let mut errors = FieldErrors::new();
    assert_eq!(
        read_text("t", &t("a\u{0}b"), TextRule::LONG, &mut errors),
        None
    );
    assert_eq!(
        errors.get("t"),
        Some(&["The t format is invalid.".to_owned()][..])
    );
    assert!(
        read_text(
            "t",
            &t("line\nnext\ttab"),
            TextRule::LONG,
            &mut FieldErrors::new()
        )
        .is_some()
    );
}

#[test]
fn one_line_fields_refuse_line_breaks_and_tabs_that_long_text_keeps() {
    for rule in [
        TextRule::TITLE,
        TextRule::CATEGORY_NAME,
        TextRule::TAG,
        TextRule::UNIT,
        TextRule::SHORT,
    ] {
        for bad in [
            "Please pay.\r.\r\nMAIL FROM:<x@y>",
            "two\nlines",
            "a\tb",
            "cr\ronly",
        ] {
            let mut errors = FieldErrors::new();
            assert_eq!(read_text("t", &t(bad), rule, &mut errors), None, "{bad:?}");
            assert_eq!(
                errors.get("t"),
                Some(&["The t format is invalid.".to_owned()][..])
            );
        }
        assert!(read_text("t", &t("one line"), rule, &mut FieldErrors::new()).is_some());
    }
    for rule in [TextRule::LONG, TextRule::SEARCH] {
        assert!(read_text("t", &t("a\r\nb\tc"), rule, &mut FieldErrors::new()).is_some());
    }
}

#[test]
fn text_fields_refuse_numbers_booleans_arrays_and_objects() {
    for v in [
        RawValue::Number("5".into()),
        RawValue::Bool(true),
        RawValue::List(vec![t("a")]),
        RawValue::Map(RawMap::new()),
    ] {
        let mut errors = FieldErrors::new();
        assert_eq!(
            read_text("note_title", &v, TextRule::TITLE, &mut errors),
            None
        );
        assert_eq!(
            errors.get("note_title"),
            Some(&["The note title must be a string.".to_owned()][..])
        );
    }
}

#[test]
fn integers_accept_text_and_numbers_but_not_fractions_or_huge_values() {
    let mut errors = FieldErrors::new();
    assert_eq!(read_integer("limit", &t("25"), &mut errors), Some(25));
    assert_eq!(
        read_integer("limit", &RawValue::Number("25".into()), &mut errors),
        Some(25)
    );
    assert_eq!(read_integer("limit", &t("-3"), &mut errors), Some(-3));
    assert!(errors.is_empty());
    for bad in ["2.5", "1e3", "abc", "99999999999999999999", "", "+"] {
        let mut errors = FieldErrors::new();
        assert_eq!(read_integer("limit", &t(bad), &mut errors), None, "{bad}");
        assert_eq!(
            errors.get("limit"),
            Some(&["The limit must be an integer.".to_owned()][..])
        );
    }
}

#[test]
fn json_numbers_with_an_integral_value_are_integers_but_text_stays_strict() {
    let n = |s: &str| RawValue::Number(s.into());
    let mut errors = FieldErrors::new();
    assert_eq!(read_integer("users.0", &n("1.0"), &mut errors), Some(1));
    assert_eq!(
        read_integer("users.0", &n("364416.0"), &mut errors),
        Some(364_416)
    );
    assert_eq!(read_integer("users.0", &n("3e2"), &mut errors), Some(300));
    assert_eq!(read_integer("users.0", &n("-2.0"), &mut errors), Some(-2));
    assert!(errors.is_empty());
    for bad in [
        n("1.5"),
        n("1e300"),
        n("1e17"),
        t("1.0"),
        t("3e2"),
        n("9007199254740993.0"),
        n("9007199254740990.5"),
        n("1e-3"),
    ] {
        let mut errors = FieldErrors::new();
        assert_eq!(read_integer("users.0", &bad, &mut errors), None, "{bad:?}");
        assert_eq!(
            errors.get("users.0"),
            Some(&["The users.0 must be an integer.".to_owned()][..])
        );
    }
    let mut errors = FieldErrors::new();
    assert_eq!(read_id("doc_client_id", &n("0.0"), &mut errors), None);
    assert_eq!(
        errors.get("doc_client_id"),
        Some(&["The selected doc client id is invalid.".to_owned()][..])
    );
}

#[test]
fn ids_that_cannot_exist_are_invalid_selections() {
    let mut errors = FieldErrors::new();
    assert_eq!(read_id("doc_client_id", &t("0"), &mut errors), None);
    assert_eq!(
        errors.get("doc_client_id"),
        Some(&["The selected doc client id is invalid.".to_owned()][..])
    );
}

#[test]
fn dates_must_be_real_calendar_days_written_year_month_day() {
    let mut errors = FieldErrors::new();
    assert_eq!(
        read_date("bill_date", &t("2026-02-28"), &mut errors),
        NaiveDate::from_ymd_opt(2026, 2, 28)
    );
    for bad in [
        "2026-02-30",
        "2026-2-1",
        "26-02-01",
        "2026/02/01",
        "0000-01-01",
        "2026-02-01T00:00",
        "tomorrow",
    ] {
        let mut errors = FieldErrors::new();
        assert_eq!(read_date("bill_date", &t(bad), &mut errors), None, "{bad}");
        assert_eq!(
            errors.get("bill_date"),
            Some(&["The bill date is not a valid date.".to_owned()][..])
        );
    }
}

#[test]
fn money_messages_name_the_broken_limit() {
    let check = |input: &str, expected: &str| {
        let mut errors = FieldErrors::new();
        assert_eq!(read_money("doc_value", &t(input), &mut errors), None);
        assert_eq!(
            errors.get("doc_value"),
            Some(&[expected.to_owned()][..]),
            "{input}"
        );
    };
    check("abc", "The doc value must be a number.");
    check(
        "1.005",
        "The doc value may not have more than 2 decimal places.",
    );
    check(
        "10000000000000",
        "The doc value must be between -9999999999999.99 and 9999999999999.99.",
    );
    let mut errors = FieldErrors::new();
    assert_eq!(
        read_money("doc_value", &RawValue::Number("12.5".into()), &mut errors)
            .map(|m| m.to_string()),
        Some("12.50".into())
    );
}

#[test]
fn a_non_negative_amount_names_zero_as_its_lower_bound() {
    let check = |input: &str, expected: &str| {
        let mut errors = FieldErrors::new();
        assert_eq!(read_money_non_negative("d", &t(input), &mut errors), None);
        assert_eq!(errors.get("d"), Some(&[expected.to_owned()][..]), "{input}");
    };
    check("-5", "The d must be at least 0.");
    check("1e20", "The d must be between 0 and 9999999999999.99.");
    check("-1e20", "The d must be between 0 and 9999999999999.99.");
    let mut errors = FieldErrors::new();
    assert!(read_money_non_negative("d", &t("0"), &mut errors).is_some());
}

#[test]
fn quantities_must_be_positive_with_four_decimals_at_most() {
    let check = |input: &str, expected: &str| {
        let mut errors = FieldErrors::new();
        assert_eq!(
            read_quantity("items.0.quantity", &t(input), &mut errors),
            None
        );
        assert_eq!(
            errors.get("items.0.quantity"),
            Some(&[expected.to_owned()][..]),
            "{input}"
        );
    };
    check("0", "The items.0.quantity must be greater than 0.");
    check("-2", "The items.0.quantity must be greater than 0.");
    check(
        "1.00001",
        "The items.0.quantity may not have more than 4 decimal places.",
    );
    check(
        "1e20",
        "The items.0.quantity may not be greater than 99999999999.9999.",
    );
    check("two", "The items.0.quantity must be a number.");
}

#[test]
fn percentages_stay_between_zero_and_a_hundred() {
    let mut errors = FieldErrors::new();
    assert_eq!(
        read_percent_0_100("p", &t("100"), &mut errors),
        Some(Percent::HUNDRED)
    );
    for bad in ["100.01", "-1", "1e9"] {
        let mut errors = FieldErrors::new();
        assert_eq!(read_percent_0_100("p", &t(bad), &mut errors), None);
        assert_eq!(
            errors.get("p"),
            Some(&["The p must be between 0 and 100.".to_owned()][..]),
            "{bad}"
        );
    }
}

#[test]
fn patch_fields_tell_absent_from_sent_empty() {
    let raw = map(&[("cleared", t("")), ("set", t("x"))]);
    let mut form = Form::new(&raw);
    assert_eq!(form.patch("absent", text(TextRule::LONG)), Patch::Keep);
    assert_eq!(form.patch("cleared", text(TextRule::LONG)), Patch::Clear);
    assert_eq!(
        form.patch("set", text(TextRule::LONG)),
        Patch::Set("x".to_owned())
    );
}

#[test]
fn lists_skip_empty_elements_and_keep_original_positions() {
    let raw = map(&[
        (
            "users",
            RawValue::List(vec![t(""), t("5"), RawValue::Null, t("x")]),
        ),
        ("empty", t("")),
        ("scalar", t("5")),
    ]);
    let mut form = Form::new(&raw);
    let users = form.list("users", true, 10).unwrap();
    assert_eq!(
        users.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        vec![1, 3]
    );
    assert_eq!(form.list("empty", true, 10).unwrap().len(), 0);
    assert_eq!(form.list("scalar", true, 10), None);
    assert_eq!(form.list("missing", true, 10), None);
    let errors = form.finish().unwrap_err().errors;
    assert_eq!(
        errors.get("scalar"),
        Some(&["The scalar must be an array.".to_owned()][..])
    );
    assert_eq!(
        errors.get("missing"),
        Some(&["The missing field is required.".to_owned()][..])
    );
}

#[test]
fn sparse_form_arrays_report_the_indices_they_were_sent_under() {
    let raw = map(&[("users", RawValue::Indexed(vec![(2, t("5")), (7, t("x"))]))]);
    let mut form = Form::new(&raw);
    let items = form.list("users", true, 10).unwrap();
    assert_eq!(
        items.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        vec![2, 7]
    );
}

/// Issue 47: the bound counted the elements left once the empty ones were skipped, so a
/// list longer than the documented `maxItems` passed when some of its elements were blank.
#[test]
fn the_limit_counts_empty_elements_as_sent() {
    let mut sent = vec![t("5"); 10];
    sent.push(RawValue::Null);
    let indexed: Vec<(u64, RawValue)> = (0..11)
        .map(|i| (i, if i == 3 { t("") } else { t("5") }))
        .collect();
    let raw = map(&[
        ("users", RawValue::List(sent)),
        ("team", RawValue::Indexed(indexed)),
        ("tags", RawValue::List(vec![t(" "); 11])),
    ]);
    let mut form = Form::new(&raw);
    assert_eq!(form.list("users", true, 10), None);
    assert_eq!(form.list("team", true, 10), None);
    assert_eq!(form.list("tags", true, 10), None);
    let errors = form.finish().unwrap_err().errors;
    for field in ["users", "team", "tags"] {
        assert_eq!(
            errors.get(field),
            Some(&[format!("The {field} may not have more than 10 items.")][..]),
            "{field}"
        );
    }
    // At the bound, blanks included, the list is read.
    let mut sent = vec![t("5"); 9];
    sent.push(t(""));
    let raw = map(&[("users", RawValue::List(sent))]);
    assert_eq!(
        Form::new(&raw).list("users", true, 10).map(|l| l.len()),
        Some(9)
    );
}

#[test]
fn lists_longer_than_the_limit_are_refused() {
    let raw = map(&[("tags", RawValue::List(vec![t("a"); 11]))]);
    let mut form = Form::new(&raw);
    assert_eq!(form.list("tags", true, 10), None);
    let errors = form.finish().unwrap_err().errors;
    assert_eq!(
        errors.get("tags"),
        Some(&["The tags may not have more than 10 items.".to_owned()][..])
    );
}

#[test]
fn rejected_input_still_carries_the_references_that_parsed() {
    let raw = map(&[("doc_client_id", t("12"))]);
    let mut form = Form::new(&raw);
    form.required_ref("doc_client_id", RefKind::Client);
    form.required("doc_title", text(TextRule::TITLE));
    let rejected = form.finish().unwrap_err();
    assert_eq!(rejected.references.as_slice().len(), 1);
    assert_eq!(rejected.references.as_slice()[0].id, 12);
}

#[test]
fn nested_readers_prefix_their_field_keys() {
    let item = map(&[("quantity", t("0"))]);
    let outer = RawMap::new();
    let mut form = Form::new(&outer);
    let mut nested = Form::with_prefix(&item, "items.3.");
    nested.required("quantity", read_quantity);
    nested.required("description", text(TextRule::LONG));
    form.absorb(nested);
    let errors = form.finish().unwrap_err().errors;
    assert!(errors.has("items.3.quantity"));
    assert_eq!(
        errors.get("items.3.description"),
        Some(&["The items.3.description field is required.".to_owned()][..])
    );
}

/// Every text rule: one-line and long.
const ALL_RULES: [TextRule; 7] = [
    TextRule::TITLE,
    TextRule::CATEGORY_NAME,
    TextRule::TAG,
    TextRule::UNIT,
    TextRule::SHORT,
    TextRule::LONG,
    TextRule::SEARCH,
];

/// The one-line rules.
const ONE_LINE_RULES: [TextRule; 5] = [
    TextRule::TITLE,
    TextRule::CATEGORY_NAME,
    TextRule::TAG,
    TextRule::UNIT,
    TextRule::SHORT,
];

/// Reads `s` under `rule`: the text, or the field's messages.
fn read(s: &str, rule: TextRule) -> Result<String, Vec<String>> {
    let mut errors = FieldErrors::new();
    read_text("t", &t(s), rule, &mut errors)
        .ok_or_else(|| errors.get("t").map(<[String]>::to_vec).unwrap_or_default())
}

#[test]
fn every_text_is_normalised_to_nfc_search_terms_included() {
    for rule in ALL_RULES {
        assert_eq!(
            read("Cafe\u{301} Ame\u{301}lie", rule).unwrap(),
            "Café Amélie"
        );
        // Hangul jamo compose to the syllable; an already composed text is unchanged.
        assert_eq!(read("\u{1100}\u{1161}", rule).unwrap(), "\u{AC00}");
        assert_eq!(read("Déjà vu", rule).unwrap(), "Déjà vu");
    }
    // NFC, not NFKC: a fullwidth letter or a ligature is kept as typed (uniqueness compares
    // the compatibility form, in the database).
    assert_eq!(read("Ｄefault", TextRule::TITLE).unwrap(), "Ｄefault");
    assert_eq!(read("ﬁle", TextRule::TITLE).unwrap(), "ﬁle");
    assert_eq!(nfc("e\u{301}"), "é");
    assert!(matches!(nfc("plain"), std::borrow::Cow::Borrowed(_)));
}

#[test]
fn lengths_are_counted_after_normalisation() {
    // 150 decomposed é are 300 scalar values but 150 characters once composed.
    let decomposed = "e\u{301}".repeat(150);
    assert_eq!(
        read(&decomposed, TextRule::CATEGORY_NAME).unwrap(),
        "é".repeat(150)
    );
    assert_eq!(
        read(&"e\u{301}".repeat(151), TextRule::CATEGORY_NAME),
        Err(vec![
            "The t may not be greater than 150 characters.".to_owned()
        ])
    );
}

/// One character of every range one-line fields refuse (and the four look-alikes of
/// issue 33), each where it cannot be part of a meaningful sequence.
const INVISIBLE: [&str; 36] = [
    "Default\u{200B}",
    "\u{202E}Default",
    "Def\u{AD}ault",
    "Def\u{34F}ault",
    "Default\u{61C}",
    "\u{115F}Default",
    "Def\u{1160}ault",
    "Def\u{17B4}ault",
    "Def\u{17B5}ault",
    "Def\u{180B}ault",
    "Def\u{180E}ault",
    "Def\u{180F}ault",
    "Def\u{200C}ault",
    "Def\u{200D}ault",
    "Default\u{200E}",
    "\u{200F}Default",
    "\u{202A}Default\u{202C}",
    "\u{202B}Default",
    "\u{202D}Default",
    "Def\u{2060}ault",
    "Def\u{2063}ault",
    "\u{2066}Default\u{2069}",
    "Def\u{206F}ault",
    "Def\u{3164}ault",
    "Default\u{FE00}",
    "Default\u{FE0F}",
    "\u{FEFF}Default",
    "Def\u{FFA0}ault",
    "Def\u{FFF0}ault",
    "Def\u{FFF8}ault",
    "Def\u{1BCA0}ault",
    "Def\u{1D173}ault",
    "Default\u{E0001}",
    "Default\u{E0067}\u{E007F}",
    "Default\u{E0100}",
    "Def\u{E0FFF}ault",
];

#[test]
fn one_line_fields_refuse_invisible_and_bidi_control_characters() {
    for rule in ONE_LINE_RULES {
        for bad in INVISIBLE {
            assert_eq!(
                read(bad, rule),
                Err(vec!["The t format is invalid.".to_owned()]),
                "{bad:?} under {rule:?}"
            );
        }
    }
    for bad in INVISIBLE {
        assert!(has_invisible(bad), "{bad:?}");
        assert!(bad.chars().any(is_default_ignorable), "{bad:?}");
    }
    // The fullwidth look-alike is visible: it is refused by the name's uniqueness instead.
    assert_eq!(
        read("Ｄefault", TextRule::CATEGORY_NAME).unwrap(),
        "Ｄefault"
    );
}

#[test]
fn long_text_and_search_keep_invisible_characters_but_are_normalised() {
    for rule in [TextRule::LONG, TextRule::SEARCH] {
        for kept in INVISIBLE {
            assert_eq!(read(kept, rule).as_deref(), Ok(kept), "{kept:?}");
        }
        // Hebrew with a right-to-left mark before a number, a soft hyphenation hint.
        assert!(read("מחיר\u{200F} 100", rule).is_ok());
        assert_eq!(
            read("Donau\u{AD}dampf\u{AD}schiff Cafe\u{301}", rule).unwrap(),
            "Donau\u{AD}dampf\u{AD}schiff Café"
        );
    }
}

#[test]
fn joiners_selectors_and_tags_are_kept_in_the_sequences_that_give_them_meaning() {
    for fine in [
        "Family 👨\u{200D}👩\u{200D}👧",
        "Pride 🏳\u{FE0F}\u{200D}🌈",
        "Dev 👩🏽\u{200D}💻",
        "Eye 👁\u{FE0F}\u{200D}🗨\u{FE0F}",
        "Love ❤\u{FE0F}",
        "Text ☺\u{FE0E}",
        "Keycap 1\u{FE0F}\u{20E3} and #\u{FE0F}\u{20E3}",
        "Scotland 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
        // Persian "I want": the non-joiner is part of the spelling.
        "می\u{200C}خواهم",
        // Devanagari: a joiner after the virama asks for the half form.
        "क्\u{200D}ष",
        // An ideographic variation sequence (a family name's variant glyph).
        "葛\u{E0100}飾",
        // A Mongolian free variation selector after a Mongolian letter.
        "\u{1820}\u{180B}\u{1821}",
    ] {
        assert!(!has_invisible(fine), "{fine:?}");
        for rule in ONE_LINE_RULES {
            assert_eq!(read(fine, rule).as_deref(), Ok(fine), "{fine:?}");
        }
    }
    for bad in [
        // Joiners next to ASCII letters, at an end, or doubled.
        "Def\u{200D}ault",
        "\u{200D}👩",
        "👩\u{200D}",
        "👩\u{200D}\u{200D}💻",
        "é\u{200C} é",
        // A selector after an ASCII letter, a space, another selector, or at the start.
        "Default\u{FE0F}",
        "a \u{FE0F}",
        "❤\u{FE0F}\u{FE0F}",
        "\u{FE0F}❤",
        // Tags without the flag, without their end, or a lone end.
        "Default\u{E0067}\u{E0062}\u{E007F}",
        "🏴\u{E0067}\u{E0062}",
        "🏴\u{E007F}",
        // A Mongolian selector after a Latin letter.
        "a\u{180B}",
    ] {
        assert!(has_invisible(bad), "{bad:?}");
        assert!(read(bad, TextRule::TITLE).is_err(), "{bad:?}");
    }
}

#[test]
fn one_line_fields_refuse_unicode_line_and_paragraph_separators() {
    for rule in ONE_LINE_RULES {
        for bad in ["two\u{2028}lines", "two\u{2029}paragraphs"] {
            assert_eq!(
                read(bad, rule),
                Err(vec!["The t format is invalid.".to_owned()]),
                "{bad:?}"
            );
        }
    }
    assert!(read("two\u{2028}lines", TextRule::LONG).is_ok());
}
