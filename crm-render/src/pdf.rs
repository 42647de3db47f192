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
mod xmp;

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
    let mut pdf = PdfDocument::new();
    pdf.set_metadata(metadata(doc));
    paint_pages(&mut pdf, doc, paper)?;
    pdf.finish().map_err(|e| RenderError::Pdf(format!("{e:?}")))
}

/// A file that a PDF/A-3 carries as an associated file of the document (Factur-X's
/// `factur-x.xml`), with the XMP properties that describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// Its file name.
    pub name: String,
    /// Its media type (`text/xml`).
    pub mime_type: String,
    /// A human-readable description.
    pub description: String,
    /// Its bytes.
    pub data: Vec<u8>,
    /// The date it was made (the document's issue date: the PDF's dates are this day, so
    /// the same document gives the same bytes).
    pub date: chrono::NaiveDate,
    /// `rdf:Description` elements added to the document's XMP metadata (the Factur-X
    /// properties and their PDF/A extension schema), written as they are.
    pub xmp: String,
}

/// Renders the PDF of `doc` on `paper` as PDF/A-3b (fonts embedded, an sRGB output
/// intent, XMP metadata, checked by krilla's validator while writing) carrying
/// `attachment` as an associated file (`/AF`, relationship `Alternative`: it is the same
/// document in another form). The attachment's XMP properties are added to the metadata
/// stream by an incremental update (ISO 32000-1 §7.5.6), since krilla writes the metadata
/// itself: a new version of that one object, appended, with its cross-reference section.
pub fn render_pdfa3(
    doc: &Document,
    paper: Paper,
    attachment: &Attachment,
) -> Result<Vec<u8>, RenderError> {
    use chrono::Datelike;
    use krilla::configure::{Configuration, Validator};
    use krilla::embed::{AssociationKind, EmbeddedFile, MimeType};
    let date = krilla::metadata::DateTime::new(attachment.date.year() as u16)
        .month(attachment.date.month() as u8)
        .day(attachment.date.day() as u8);
    let settings = krilla::SerializeSettings {
        configuration: Configuration::new_with_validator(Validator::A3_B),
        ..Default::default()
    };
    let mut pdf = PdfDocument::new_with(settings);
    pdf.set_metadata(metadata(doc).creation_date(date));
    let mime_type = MimeType::new(&attachment.mime_type)
        .ok_or_else(|| RenderError::Pdf(format!("bad media type {}", attachment.mime_type)))?;
    pdf.embed_file(EmbeddedFile {
        path: attachment.name.clone(),
        mime_type: Some(mime_type),
        description: Some(attachment.description.clone()),
        association_kind: AssociationKind::Alternative,
        data: attachment.data.clone().into(),
        modification_date: Some(date),
        compress: Some(true),
        location: None,
    })
    .ok_or_else(|| RenderError::Pdf(format!("{} is embedded twice", attachment.name)))?;
    paint_pages(&mut pdf, doc, paper)?;
    let bytes = pdf
        .finish()
        .map_err(|e| RenderError::Pdf(format!("{e:?}")))?;
    xmp::add_descriptions(bytes, &attachment.xmp)
}

/// The document's metadata: its title, language and creator.
fn metadata(doc: &Document) -> Metadata {
    Metadata::new()
        .title(format!("{} · {}", doc.title(), doc.company))
        .language("en".to_owned())
        .creator("crm-render".to_owned())
}

/// Lays `doc` out on `paper` and paints its pages into `pdf`.
fn paint_pages(pdf: &mut PdfDocument, doc: &Document, paper: Paper) -> Result<(), RenderError> {
    let fonts = face::fonts().ok_or_else(|| RenderError::Pdf("the font cannot be read".into()))?;
    let pages = layout::lay_out(doc, paper, fonts);
    let (width, height) = paper.size();
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
    Ok(())
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
