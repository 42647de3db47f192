use super::*;
use crate::document::Context;
use crate::pdf::face;
use crate::sample;

fn fonts() -> &'static Fonts {
    face::fonts().unwrap()
}

fn doc(n: usize) -> Document {
    let e = sample::estimate(&sample::input(n).unwrap(), &sample::texts).unwrap();
    Document::estimate(
        &e,
        Context {
            company: "Northwind",
            link: None,
            ..Default::default()
        },
    )
}

fn texts(page: &[Item]) -> Vec<&str> {
    page.iter()
        .filter_map(|i| match i {
            Item::Text { text, .. } => Some(text.as_str()),
            Item::Rule { .. } => None,
        })
        .collect()
}

#[test]
fn wrapped_lines_fit_their_width_and_keep_every_word() {
    let text = "Consulting on site: a long description that has to wrap onto more lines";
    let lines = wrap(fonts(), BODY, text, 120.0);
    assert!(lines.len() > 2);
    for line in &lines {
        assert!(
            fonts().face(false).width(line, BODY.size) <= 120.0,
            "{line}"
        );
    }
    assert_eq!(lines.join(" "), text);
}

#[test]
fn a_word_wider_than_the_line_is_broken_between_characters() {
    let word = "https://crm.example/c/0123456789abcdef0123456789abcdef0123456789";
    let lines = wrap(fonts(), SMALL, word, 80.0);
    assert!(lines.len() > 1);
    assert_eq!(lines.concat(), word);
    for line in &lines {
        assert!(fonts().face(false).width(line, SMALL.size) <= 80.0);
    }
}

#[test]
fn line_ends_are_kept_and_blank_lines_too() {
    assert_eq!(wrap(fonts(), BODY, "a\n\nb", 200.0), vec!["a", "", "b"]);
}

#[test]
fn a_short_document_is_one_page_without_a_page_number() {
    let pages = lay_out(&doc(3), Paper::A4, fonts());
    assert_eq!(pages.len(), 1);
    assert!(!texts(&pages[0]).iter().any(|t| t.starts_with("Page ")));
}

#[test]
fn a_long_table_repeats_its_header_and_numbers_every_page() {
    let pages = lay_out(&doc(200), Paper::A4, fonts());
    let n = pages.len();
    assert!(n > 3, "{n} pages");
    for (i, page) in pages.iter().enumerate() {
        let t = texts(page);
        assert!(t.contains(&"Description"), "header on page {}", i + 1);
        assert!(t.contains(&format!("Page {} of {n}", i + 1).as_str()));
    }
    // Every row appears once, in order.
    let all: Vec<&str> = pages.iter().flat_map(|p| texts(p)).collect();
    let positions: Vec<i32> = all
        .windows(2)
        .filter_map(|w| w[0].parse::<i32>().ok().filter(|_| w[1].contains('.')))
        .collect();
    assert_eq!(positions, (1..=200).collect::<Vec<_>>());
}

#[test]
fn nothing_is_placed_outside_the_content_box() {
    for paper in [Paper::A4, Paper::Letter] {
        let (width, height) = paper.size();
        for page in lay_out(&doc(60), paper, fonts()) {
            for item in &page {
                if let Item::Text { x, y, style, text } = item {
                    let w = fonts().face(style.bold).width(text, style.size);
                    assert!(
                        *x >= MARGIN_X - 0.01 && x + w <= width - MARGIN_X + 0.01,
                        "{text}"
                    );
                    assert!(*y > MARGIN_TOP && *y < height - 20.0, "{text} at {y}");
                    if !text.starts_with("Page ") && !text.starts_with("Estimate #12 ·") {
                        assert!(*y <= height - MARGIN_BOTTOM, "{text} at {y}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_row_taller_than_a_page_is_split_between_its_lines() {
    let mut e = sample::estimate(&sample::input(2).unwrap(), &sample::texts).unwrap();
    e.line_items[0].long_description = Some(
        (1..=120)
            .map(|i| format!("Detail line {i}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let d = Document::estimate(&e, Context::default());
    let pages = lay_out(&d, Paper::A4, fonts());
    assert!(pages.len() >= 3);
    let all: Vec<&str> = pages.iter().flat_map(|p| texts(p)).collect();
    for i in 1..=120 {
        assert!(all.contains(&format!("Detail line {i}").as_str()));
    }
    assert!(texts(&pages[1]).contains(&"Description"));
}

#[test]
fn long_figures_and_units_do_not_overflow_the_table() {
    let mut e = sample::estimate(&sample::input(1).unwrap(), &sample::texts).unwrap();
    e.line_items[0].unit = Some("person-days of senior engineering on site".into());
    e.line_items[0].total.money = "9999999999999.99".parse().unwrap();
    let d = Document::estimate(&e, Context::default());
    let (width, _) = Paper::A4.size();
    for item in &lay_out(&d, Paper::A4, fonts())[0] {
        if let Item::Text { x, style, text, .. } = item {
            let w = fonts().face(style.bold).width(text, style.size);
            assert!(x + w <= width - MARGIN_X + 0.01, "{text}");
        }
    }
}
