//! Where everything goes: the document flowed onto pages as positioned text runs and
//! rules, in points from the page's top-left corner (krilla's coordinates).
//!
//! The order is the page's: company, title, status, client and dates, the decision, the
//! lines table, the totals, notes, terms, the link. Text wraps at word boundaries (a word
//! wider than its column is broken between characters). The lines table repeats its header
//! on every page it reaches; a row moves whole to the next page when it fits there, and
//! only a row taller than a page is split between its text lines. Footers ("Page 1 of 3")
//! are placed once the page count is known.

use super::Paper;
use super::face::Fonts;
use crate::document::{Document, DocumentLine};

/// Text colour: near black.
const INK: (u8, u8, u8) = (26, 26, 26);
/// Secondary text: 7.5:1 on white.
const MUTED: (u8, u8, u8) = (85, 85, 85);
/// Table rules.
const LINE: (u8, u8, u8) = (200, 200, 200);
/// The decision bar, by decision.
const ACCEPTED: (u8, u8, u8) = (30, 107, 52);
const DECLINED: (u8, u8, u8) = (155, 28, 28);

const MARGIN_X: f32 = 50.0;
const MARGIN_TOP: f32 = 50.0;
/// Room below the content for the footer.
const MARGIN_BOTTOM: f32 = 62.0;
/// Cell padding of the lines table.
const PAD: f32 = 5.0;

/// A text run's font, size and colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Style {
    /// Size in points.
    pub(crate) size: f32,
    /// Bold or regular.
    pub(crate) bold: bool,
    /// RGB colour.
    pub(crate) color: (u8, u8, u8),
}

impl Style {
    const fn new(size: f32, bold: bool, color: (u8, u8, u8)) -> Style {
        Style { size, bold, color }
    }

    /// Distance between two baselines.
    fn leading(self) -> f32 {
        self.size * 1.35
    }

    /// From a line's top to its baseline (DejaVu's ascender is 0.93 em; the rest of the
    /// leading is split around the line).
    fn ascent(self) -> f32 {
        self.size * 1.05
    }
}

const BODY: Style = Style::new(9.5, false, INK);
const BODY_BOLD: Style = Style::new(9.5, true, INK);
const SMALL: Style = Style::new(8.5, false, MUTED);
const LABEL: Style = Style::new(8.5, true, MUTED);
const COMPANY: Style = Style::new(12.0, true, INK);
const TITLE: Style = Style::new(22.0, true, INK);
const HEADING: Style = Style::new(11.0, true, INK);
const FINAL: Style = Style::new(11.0, true, INK);
const FOOTER: Style = Style::new(8.0, false, MUTED);

/// Something to paint.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Item {
    /// A run of text on one line; `y` is its baseline.
    Text {
        /// Left edge.
        x: f32,
        /// Baseline.
        y: f32,
        /// Font, size, colour.
        style: Style,
        /// The text (no line ends).
        text: String,
    },
    /// A filled rectangle (rules, the decision bar).
    Rule {
        /// Left.
        x: f32,
        /// Top.
        y: f32,
        /// Width.
        w: f32,
        /// Height.
        h: f32,
        /// RGB colour.
        color: (u8, u8, u8),
    },
}

/// The pages of `doc`, each a list of items.
pub(crate) fn lay_out(doc: &Document, paper: Paper, fonts: &Fonts) -> Vec<Vec<Item>> {
    let (width, height) = paper.size();
    let mut flow = Flow {
        fonts,
        pages: vec![Vec::new()],
        y: MARGIN_TOP,
        left: MARGIN_X,
        right: width - MARGIN_X,
        bottom: height - MARGIN_BOTTOM,
        header: None,
    };
    head(&mut flow, doc);
    lines_table(&mut flow, &doc.lines);
    totals(&mut flow, doc);
    if let Some(payment) = &doc.payment {
        flow.gap(14.0);
        flow.keep(HEADING.leading() + 3.0 * BODY.leading());
        flow.paragraph("Payment", HEADING, flow.left, flow.width());
        flow.gap(2.0);
        for text in payment.terms.iter().chain(&payment.bank) {
            flow.paragraph(text, BODY, flow.left, flow.width());
        }
    }
    let credits = doc
        .credits
        .as_ref()
        .map(|c| (c.heading(), Some(c.reason.clone())));
    let sections = credits.into_iter().chain([
        ("Notes".to_owned(), doc.notes.clone()),
        ("Terms".to_owned(), doc.terms.clone()),
    ]);
    for (title, body) in sections {
        if let Some(body) = &body {
            flow.gap(14.0);
            flow.keep(HEADING.leading() + 3.0 * BODY.leading());
            flow.paragraph(&title, HEADING, flow.left, flow.width());
            flow.gap(2.0);
            flow.paragraph(body, BODY, flow.left, flow.width());
        }
    }
    if let Some(link) = &doc.link {
        flow.gap(14.0);
        flow.paragraph(
            &format!("View online: {link}"),
            SMALL,
            flow.left,
            flow.width(),
        );
    }
    footers(&mut flow, doc, width, height);
    flow.pages
}

/// The lines table's header, repeated on each page the table reaches.
#[derive(Debug, Clone)]
struct TableHeader {
    columns: Columns,
}

/// The cursor over the pages.
struct Flow<'a> {
    fonts: &'a Fonts,
    pages: Vec<Vec<Item>>,
    /// The top of the next line.
    y: f32,
    left: f32,
    right: f32,
    bottom: f32,
    /// Set while the lines table is being laid out.
    header: Option<TableHeader>,
}

impl Flow<'_> {
    fn width(&self) -> f32 {
        self.right - self.left
    }

    fn items(&mut self) -> &mut Vec<Item> {
        if self.pages.is_empty() {
            self.pages.push(Vec::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    fn text(&mut self, x: f32, top: f32, style: Style, text: &str) {
        if text.is_empty() {
            return;
        }
        self.items().push(Item::Text {
            x,
            y: top + style.ascent(),
            style,
            text: text.to_owned(),
        });
    }

    /// `text` ending at `right`.
    fn text_right(&mut self, right: f32, top: f32, style: Style, text: &str) {
        let w = self.fonts.face(style.bold).width(text, style.size);
        self.text(right - w, top, style, text);
    }

    fn rule(&mut self, x: f32, y: f32, w: f32, h: f32, color: (u8, u8, u8)) {
        self.items().push(Item::Rule { x, y, w, h, color });
    }

    fn gap(&mut self, h: f32) {
        self.y += h;
    }

    /// The height a fresh page offers below its table header, if one is repeated.
    fn page_room(&self) -> f32 {
        let header = self.header.as_ref().map_or(0.0, |_| header_height());
        self.bottom - MARGIN_TOP - header
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = MARGIN_TOP;
        if let Some(header) = self.header.clone() {
            draw_header(self, &header.columns);
        }
    }

    /// Moves to a new page unless `h` fits below the cursor. Blocks that fit on one page
    /// stay together this way.
    fn keep(&mut self, h: f32) {
        if self.y + h > self.bottom && self.y > MARGIN_TOP {
            self.new_page();
        }
    }

    /// `text` wrapped to `width` from `x`, line after line, breaking pages between lines.
    fn paragraph(&mut self, text: &str, style: Style, x: f32, width: f32) {
        for line in wrap(self.fonts, style, text, width) {
            self.keep(style.leading());
            let top = self.y;
            self.text(x, top, style, &line);
            self.y += style.leading();
        }
    }
}

/// The seller's and the buyer's identity, side by side (name, address, VAT id), when
/// either has more than its name.
fn parties(flow: &mut Flow<'_>, doc: &Document) {
    if !doc.seller.has_details() && !doc.buyer.has_details() {
        return;
    }
    flow.gap(12.0);
    let (left, width) = (flow.left, flow.width());
    let column = width / 2.0;
    let top = flow.y;
    let mut bottom = top;
    for (i, (label, party)) in [("From", &doc.seller), ("To", &doc.buyer)]
        .into_iter()
        .enumerate()
    {
        let x = left + column * i as f32;
        let mut lines = vec![party.name.clone()];
        lines.extend(party.trading_as.iter().map(|t| format!("trading as {t}")));
        lines.extend(party.address.iter().cloned());
        lines.extend(party.vat_id.iter().map(|v| format!("VAT {v}")));
        lines.extend(party.registrations.iter().cloned());
        flow.text(x, top, LABEL, label);
        let mut y = top + LABEL.leading();
        for line in &lines {
            for wrapped in wrap(flow.fonts, BODY, line, column - 10.0) {
                flow.text(x, y, BODY, &wrapped);
                y += BODY.leading();
            }
        }
        bottom = bottom.max(y);
    }
    flow.y = bottom;
}

/// Company, title, status, client and dates, the decision.
fn head(flow: &mut Flow<'_>, doc: &Document) {
    let (left, width) = (flow.left, flow.width());
    flow.paragraph(&doc.company, COMPANY, left, width);
    flow.gap(8.0);
    flow.paragraph(&doc.title(), TITLE, left, width);
    flow.paragraph(&format!("Status: {}", doc.status), BODY, left, width);
    flow.gap(12.0);

    // Client, then the dates, side by side: label above value.
    let mut facts: Vec<(&str, String)> = vec![("Client", doc.client.clone())];
    facts.extend(doc.dates.iter().map(|d| (d.label, d.text())));
    let client_w = width * 0.44;
    let date_w = (width - client_w) / (facts.len().max(2) - 1) as f32;
    let top = flow.y;
    let mut bottom = top;
    let mut x = left;
    for (i, (label, value)) in facts.iter().enumerate() {
        let w = if i == 0 { client_w } else { date_w };
        flow.text(x, top, LABEL, label);
        let mut y = top + LABEL.leading();
        for line in wrap(flow.fonts, BODY_BOLD, value, w - 10.0) {
            flow.text(x, y, BODY_BOLD, &line);
            y += BODY_BOLD.leading();
        }
        bottom = bottom.max(y);
        x += w;
    }
    flow.y = bottom;
    parties(flow, doc);

    if let Some(decision) = &doc.decision {
        flow.gap(12.0);
        let color = match decision.kind {
            crate::DecisionKind::Accepted => ACCEPTED,
            crate::DecisionKind::Declined => DECLINED,
        };
        let top = flow.y;
        let first_page = flow.pages.len();
        flow.paragraph(&decision.sentence(), HEADING, left + 10.0, width - 10.0);
        if let Some(reason) = &decision.reason {
            flow.paragraph(
                &format!("Reason: {reason}"),
                BODY,
                left + 10.0,
                width - 10.0,
            );
        }
        if flow.pages.len() == first_page {
            let h = flow.y - top;
            flow.rule(left, top, 3.0, h, color);
        }
    }
    flow.gap(18.0);
}

/// The lines table's column edges.
#[derive(Debug, Clone)]
struct Columns {
    /// Left edge of `#`, description, quantity, rate, total; and the right edge.
    x: [f32; 6],
}

impl Columns {
    fn measure(flow: &Flow<'_>, lines: &[DocumentLine]) -> Columns {
        let body = flow.fonts.face(false);
        let label = flow.fonts.face(true);
        let widest = |header: &str, cells: &mut dyn Iterator<Item = String>| {
            cells
                .map(|c| body.width(&c, BODY.size))
                .fold(label.width(header, LABEL.size), f32::max)
                + 2.0 * PAD
        };
        let pos = widest("#", &mut lines.iter().map(|l| l.position.to_string()));
        let rate = widest("Rate", &mut lines.iter().map(|l| l.rate.clone()));
        let total = widest("Total", &mut lines.iter().map(|l| l.total.clone()));
        // A quantity with a long unit wraps rather than squeezing the description.
        let quantity = widest(
            "Quantity",
            &mut lines.iter().map(|l| l.quantity_with_unit()),
        )
        .min(flow.width() * 0.22);
        let description = (flow.width() - pos - quantity - rate - total).max(60.0);
        let mut x = [flow.left; 6];
        for (i, w) in [pos, description, quantity, rate, total]
            .into_iter()
            .enumerate()
        {
            x[i + 1] = x[i] + w;
        }
        Columns { x }
    }

    fn width(&self, column: usize) -> f32 {
        self.x[column + 1] - self.x[column] - 2.0 * PAD
    }
}

fn header_height() -> f32 {
    LABEL.leading() + 2.0 * PAD + 1.0
}

fn draw_header(flow: &mut Flow<'_>, c: &Columns) {
    let top = flow.y + PAD;
    flow.text(c.x[0] + PAD, top, LABEL, "#");
    flow.text(c.x[1] + PAD, top, LABEL, "Description");
    for (column, label) in [(2, "Quantity"), (3, "Rate"), (4, "Total")] {
        flow.text_right(c.x[column + 1] - PAD, top, LABEL, label);
    }
    flow.y += header_height() - 1.0;
    let (left, width) = (flow.left, flow.width());
    flow.rule(left, flow.y, width, 1.0, INK);
    flow.y += 1.0;
}

/// One text line of a row: the left column's line and the quantity's, side by side.
struct RowLine {
    left: Option<(String, Style)>,
    quantity: Option<String>,
    height: f32,
}

fn lines_table(flow: &mut Flow<'_>, lines: &[DocumentLine]) {
    let columns = Columns::measure(flow, lines);
    flow.keep(header_height() + BODY.leading() + 2.0 * PAD);
    draw_header(flow, &columns);
    flow.header = Some(TableHeader {
        columns: columns.clone(),
    });
    for line in lines {
        row(flow, &columns, line);
    }
    flow.header = None;
}

fn row(flow: &mut Flow<'_>, c: &Columns, line: &DocumentLine) {
    let mut left: Vec<(String, Style)> = wrap(flow.fonts, BODY, &line.description, c.width(1))
        .into_iter()
        .map(|l| (l, BODY))
        .collect();
    if let Some(details) = &line.details {
        left.extend(
            wrap(flow.fonts, SMALL, details, c.width(1))
                .into_iter()
                .map(|l| (l, SMALL)),
        );
    }
    let quantity = wrap(flow.fonts, BODY, &line.quantity_with_unit(), c.width(2));
    let count = left.len().max(quantity.len());
    let mut left = left.into_iter();
    let mut quantity = quantity.into_iter();
    let row_lines: Vec<RowLine> = (0..count)
        .map(|_| {
            let l = left.next();
            let q = quantity.next();
            let height = l
                .as_ref()
                .map_or(BODY.leading(), |(_, s)| s.leading())
                .max(if q.is_some() { BODY.leading() } else { 0.0 });
            RowLine {
                left: l,
                quantity: q,
                height,
            }
        })
        .collect();
    let height: f32 = row_lines.iter().map(|l| l.height).sum::<f32>() + 2.0 * PAD;
    // Whole on this page, or whole on the next; split only when taller than a page.
    if flow.y + height > flow.bottom && height <= flow.page_room() {
        flow.new_page();
    }
    flow.y += PAD;
    for (i, rl) in row_lines.iter().enumerate() {
        if flow.y + rl.height > flow.bottom {
            flow.new_page();
            flow.y += PAD;
        }
        let top = flow.y;
        if i == 0 {
            flow.text(c.x[0] + PAD, top, SMALL, &line.position.to_string());
            flow.text_right(c.x[4] - PAD, top, BODY, &line.rate);
            flow.text_right(c.x[5] - PAD, top, BODY, &line.total);
        }
        if let Some((text, style)) = &rl.left {
            flow.text(c.x[1] + PAD, top, *style, text);
        }
        if let Some(q) = &rl.quantity {
            flow.text_right(c.x[3] - PAD, top, BODY, q);
        }
        flow.y += rl.height;
    }
    flow.y += PAD;
    let (left, width) = (flow.left, flow.width());
    flow.rule(left, flow.y, width, 0.5, LINE);
}

/// The total rows and the final amount, right-aligned under the table; together on one
/// page when they fit.
fn totals(flow: &mut Flow<'_>, doc: &Document) {
    let regular = flow.fonts.face(false);
    let bold = flow.fonts.face(true);
    let amount_w = doc
        .totals
        .iter()
        .chain(&doc.balance)
        .map(|r| regular.width(&r.amount, BODY.size))
        .fold(bold.width(&doc.final_amount, FINAL.size), f32::max);
    let label_right = flow.right - amount_w - 24.0;
    let label_w = (flow.width() * 0.5).min(label_right - flow.left);
    let rows: Vec<(Vec<String>, &str)> = doc
        .totals
        .iter()
        .map(|r| (wrap(flow.fonts, BODY, &r.label, label_w), r.amount.as_str()))
        .collect();
    let height = rows
        .iter()
        .map(|(l, _)| l.len() as f32 * BODY.leading() + 3.0)
        .sum::<f32>()
        + FINAL.leading()
        + 12.0;
    flow.gap(8.0);
    flow.keep(height);
    for (label, amount) in rows {
        flow.keep(label.len() as f32 * BODY.leading());
        let top = flow.y;
        flow.text_right(flow.right, top, BODY, amount);
        for l in label {
            flow.text_right(label_right, flow.y, BODY, &l);
            flow.y += BODY.leading();
        }
        flow.y += 3.0;
    }
    flow.keep(FINAL.leading() + 8.0);
    flow.gap(3.0);
    let rule_left = label_right - label_w;
    flow.rule(rule_left, flow.y, flow.right - rule_left, 1.0, INK);
    flow.gap(5.0);
    let top = flow.y;
    flow.text_right(flow.right, top, FINAL, &doc.final_amount);
    flow.text_right(label_right, top, FINAL, "Total");
    flow.y += FINAL.leading();
    for r in &doc.balance {
        flow.keep(BODY.leading() + 3.0);
        flow.y += 3.0;
        let top = flow.y;
        flow.text_right(flow.right, top, BODY, &r.amount);
        flow.text_right(label_right, top, BODY, &r.label);
        flow.y += BODY.leading();
    }
}

/// "Estimate #12 · Company" and "Page 1 of 3" at the foot of every page, when there is
/// more than one.
fn footers(flow: &mut Flow<'_>, doc: &Document, width: f32, height: f32) {
    let count = flow.pages.len();
    if count < 2 {
        return;
    }
    let face = flow.fonts.face(false);
    let top = height - MARGIN_BOTTOM + 26.0;
    let title = format!("{} · {}", doc.title(), doc.company);
    for (i, page) in flow.pages.iter_mut().enumerate() {
        let number = format!("Page {} of {count}", i + 1);
        let number_w = face.width(&number, FOOTER.size);
        let right = width - MARGIN_X;
        page.push(Item::Rule {
            x: MARGIN_X,
            y: top - 6.0,
            w: width - 2.0 * MARGIN_X,
            h: 0.5,
            color: LINE,
        });
        let title_room = right - number_w - 20.0 - MARGIN_X;
        let title = truncate(face, &title, FOOTER.size, title_room);
        page.push(Item::Text {
            x: MARGIN_X,
            y: top + FOOTER.ascent(),
            style: FOOTER,
            text: title,
        });
        page.push(Item::Text {
            x: right - number_w,
            y: top + FOOTER.ascent(),
            style: FOOTER,
            text: number,
        });
    }
}

/// `text` cut to fit `width`, with an ellipsis when cut.
fn truncate(face: &super::face::Face, text: &str, size: f32, width: f32) -> String {
    if face.width(text, size) <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    for c in text.chars() {
        out.push(c);
        if face.width(&out, size) + face.width("…", size) > width {
            out.pop();
            break;
        }
    }
    out.push('…');
    out
}

/// `text` broken into lines no wider than `width`: at its line ends, then between words,
/// then (for a word wider than the line) between characters. Runs of spaces count as one.
pub(crate) fn wrap(fonts: &Fonts, style: Style, text: &str, width: f32) -> Vec<String> {
    let face = fonts.face(style.bold);
    let size = style.size;
    let space = face.width(" ", size);
    let mut out = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut line_w = 0.0;
        for word in paragraph.split_whitespace() {
            let word_w = face.width(word, size);
            if !line.is_empty() && line_w + space + word_w <= width {
                line.push(' ');
                line.push_str(word);
                line_w += space + word_w;
                continue;
            }
            if !line.is_empty() {
                out.push(std::mem::take(&mut line));
            }
            if word_w <= width {
                line.push_str(word);
                line_w = word_w;
                continue;
            }
            // A word wider than the line: as many characters as fit, line after line.
            line_w = 0.0;
            for c in word.chars() {
                let w = face.width(c.encode_utf8(&mut [0; 4]), size);
                if line_w + w > width && !line.is_empty() {
                    out.push(std::mem::take(&mut line));
                    line_w = 0.0;
                }
                line.push(c);
                line_w += w;
            }
        }
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests;
