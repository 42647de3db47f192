//! The PDF of an estimate or invoice (API.md §12), rendered in the process with krilla
//! (docs/decisions.md, "The PDF renderer"): A4 or US Letter, the page's content, the lines
//! table broken across pages with its header repeated, long descriptions wrapped, "Page 1
//! of 3" when there is more than one page, real text (a text extractor reads the same
//! figures and words) in an embedded, subset DejaVu Sans covering Latin, Greek and
//! Cyrillic (`fonts/`, with its licence).
//!
//! `layout` places everything on pages (pure geometry, measured with the fonts' own
//! advance widths, `face`); [`render`] paints the pages. Text is drawn glyph by glyph
//! without shaping: right enough for the alphabetic scripts the font covers; right-to-left
//! and complex scripts come out unshaped, and characters the font lacks as empty boxes
//! (their text is still extractable).

mod face;
mod layout;

use krilla::Document as PdfDocument;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule};

use crate::RenderError;
use crate::document::Document;
use face::Fonts;
use layout::Item;

/// The paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm (the default).
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Width and height in points (1/72 in).
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.276, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }

    /// `a4` or `letter` (the `--paper` flag's values, any case), else `None`.
    pub fn from_name(name: &str) -> Option<Paper> {
        match name.trim().to_ascii_lowercase().as_str() {
            "a4" => Some(Paper::A4),
            "letter" => Some(Paper::Letter),
            _ => None,
        }
    }

    /// `a4` / `letter`.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }
}

/// Renders the PDF of `doc` on `paper` (pure: the same document gives the same bytes).
pub fn render(doc: &Document, paper: Paper) -> Result<Vec<u8>, RenderError> {
    let fonts = face::fonts().ok_or_else(|| RenderError::Pdf("the font cannot be read".into()))?;
    let pages = layout::lay_out(doc, paper, fonts);
    let (width, height) = paper.size();
    let mut pdf = PdfDocument::new();
    pdf.set_metadata(
        Metadata::new()
            .title(format!("{} · {}", doc.title(), doc.company))
            .language("en".to_owned())
            .creator("crm-render".to_owned()),
    );
    for items in &pages {
        let settings = PageSettings::from_wh(width, height)
            .ok_or_else(|| RenderError::Pdf("bad paper size".into()))?;
        let mut page = pdf.start_page_with(settings);
        let mut surface = page.surface();
        for item in items {
            paint(&mut surface, item, fonts);
        }
        surface.finish();
        page.finish();
    }
    pdf.finish().map_err(|e| RenderError::Pdf(format!("{e:?}")))
}

fn fill(color: (u8, u8, u8)) -> Fill {
    Fill {
        paint: rgb::Color::new(color.0, color.1, color.2).into(),
        opacity: NormalizedF32::ONE,
        rule: FillRule::default(),
    }
}

fn paint(surface: &mut krilla::surface::Surface<'_>, item: &Item, fonts: &Fonts) {
    match item {
        Item::Text { x, y, style, text } => {
            let face = fonts.face(style.bold);
            let glyphs = face.glyphs(text);
            surface.set_fill(Some(fill(style.color)));
            surface.draw_glyphs(
                Point::from_xy(*x, *y),
                &glyphs,
                face.font.clone(),
                text,
                style.size,
                false,
            );
        }
        Item::Rule { x, y, w, h, color } => {
            let Some(rect) = Rect::from_xywh(*x, *y, *w, *h) else {
                return;
            };
            let mut path = PathBuilder::new();
            path.push_rect(rect);
            if let Some(path) = path.finish() {
                surface.set_fill(Some(fill(*color)));
                surface.draw_path(&path);
            }
        }
    }
}

#[cfg(test)]
mod tests;
