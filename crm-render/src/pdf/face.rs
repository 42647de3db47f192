//! The embedded fonts and their metrics: DejaVu Sans and DejaVu Sans Bold (`fonts/`,
//! licence beside them), read once per process. Widths come from the fonts' own tables
//! (skrifa, the reader krilla uses), so what the layout measures is what krilla draws.

use std::sync::LazyLock;

use krilla::text::{Font, GlyphId, KrillaGlyph};
use skrifa::instance::{LocationRef, Size};
use skrifa::metrics::GlyphMetrics;
use skrifa::raw::TableProvider;
use skrifa::{FontRef, MetadataProvider};

static REGULAR: &[u8] = include_bytes!("../../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../fonts/DejaVuSans-Bold.ttf");

/// One face: krilla's font (what is embedded) and its metrics (what is measured).
pub(crate) struct Face {
    /// The font krilla embeds and subsets.
    pub(crate) font: Font,
    charmap: skrifa::charmap::Charmap<'static>,
    metrics: GlyphMetrics<'static>,
    units_per_em: f32,
}

impl Face {
    fn new(data: &'static [u8]) -> Option<Face> {
        let font_ref = FontRef::new(data).ok()?;
        let units_per_em = f32::from(font_ref.head().ok()?.units_per_em());
        Some(Face {
            font: Font::new(data.into(), 0)?,
            charmap: font_ref.charmap(),
            metrics: font_ref.glyph_metrics(Size::unscaled(), LocationRef::default()),
            units_per_em,
        })
    }

    /// The advance of `c` in em (0 for a character the font lacks: glyph 0's box is drawn
    /// but takes its own advance, so measure it too).
    fn advance(&self, c: char) -> (skrifa::GlyphId, f32) {
        let glyph = self.charmap.map(c).unwrap_or_default();
        let advance = self.metrics.advance_width(glyph).unwrap_or(0.0) / self.units_per_em;
        (glyph, advance)
    }

    /// Whether the font has a glyph for `c`.
    #[cfg(test)]
    pub(crate) fn has(&self, c: char) -> bool {
        self.charmap.map(c).is_some()
    }

    /// The width of `text` at `size` points.
    pub(crate) fn width(&self, text: &str, size: f32) -> f32 {
        text.chars().map(|c| self.advance(c).1).sum::<f32>() * size
    }

    /// The glyphs of `text`, one per character, each mapped back to its character (which
    /// is what makes the text extractable).
    pub(crate) fn glyphs(&self, text: &str) -> Vec<KrillaGlyph> {
        text.char_indices()
            .map(|(at, c)| {
                let (glyph, advance) = self.advance(c);
                KrillaGlyph::new(
                    GlyphId::new(glyph.to_u32()),
                    advance,
                    0.0,
                    0.0,
                    0.0,
                    at..at + c.len_utf8(),
                    None,
                )
            })
            .collect()
    }
}

/// The two faces.
pub(crate) struct Fonts {
    regular: Face,
    bold: Face,
}

impl Fonts {
    /// The regular or the bold face.
    pub(crate) fn face(&self, bold: bool) -> &Face {
        if bold { &self.bold } else { &self.regular }
    }
}

static FONTS: LazyLock<Option<Fonts>> = LazyLock::new(|| {
    Some(Fonts {
        regular: Face::new(REGULAR)?,
        bold: Face::new(BOLD)?,
    })
});

/// The fonts, read on first use (`None` only if the embedded files were unreadable, which
/// a test rules out).
pub(crate) fn fonts() -> Option<&'static Fonts> {
    FONTS.as_ref()
}
