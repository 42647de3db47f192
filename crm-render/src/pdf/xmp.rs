//! Adding properties to a finished PDF's XMP metadata by an incremental update (ISO 32000-1
//! §7.5.6): the metadata stream's object is written again, after the file, with the new
//! `rdf:Description` elements before `</rdf:RDF>`, followed by a cross-reference section
//! for that one object and a trailer whose `/Prev` is the file's own. Readers take the
//! newest version of the object; the rest of the file is untouched. krilla writes the
//! metadata stream uncompressed (PDF/A forbids a filter on it), so it is found as text.

use crate::RenderError;

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

fn rfind(haystack: &[u8], needle: &[u8], before: usize) -> Option<usize> {
    haystack
        .get(..before)?
        .windows(needle.len())
        .rposition(|w| w == needle)
}

fn bad(what: &str) -> RenderError {
    RenderError::Pdf(format!("cannot add to the XMP metadata: {what}"))
}

/// `pdf` with `descriptions` added to its XMP metadata (nothing to add: `pdf` as it is).
pub(super) fn add_descriptions(
    mut pdf: Vec<u8>,
    descriptions: &str,
) -> Result<Vec<u8>, RenderError> {
    if descriptions.is_empty() {
        return Ok(pdf);
    }
    let xmp = find(&pdf, b"<x:xmpmeta", 0).ok_or_else(|| bad("no XMP packet"))?;
    let stream = rfind(&pdf, b"stream", xmp).ok_or_else(|| bad("no metadata stream"))?;
    let content_start =
        stream + b"stream".len() + usize::from(pdf.get(stream + 6) == Some(&b'\r')) + 1;
    let content_end = find(&pdf, b"endstream", xmp).ok_or_else(|| bad("no end of stream"))?;
    let obj = rfind(&pdf, b" obj", stream).ok_or_else(|| bad("no object header"))?;
    let line_start = rfind(&pdf, b"\n", obj).map_or(0, |i| i + 1);
    let header = std::str::from_utf8(&pdf[line_start..obj]).map_err(|_| bad("object header"))?;
    let mut numbers = header.split_whitespace();
    let (Some(number), Some(generation)) = (numbers.next(), numbers.next()) else {
        return Err(bad("object number"));
    };
    let (number, generation): (u32, u32) = (
        number.parse().map_err(|_| bad("object number"))?,
        generation.parse().map_err(|_| bad("generation"))?,
    );
    let mut content = pdf[content_start..content_end].to_vec();
    while content.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        content.pop();
    }
    let close = rfind(&content, b"</rdf:RDF>", content.len()).ok_or_else(|| bad("no rdf:RDF"))?;
    content.splice(close..close, descriptions.bytes());

    let startxref = rfind(&pdf, b"startxref", pdf.len()).ok_or_else(|| bad("no startxref"))?;
    let prev: u64 = std::str::from_utf8(&pdf[startxref + 9..])
        .ok()
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| bad("startxref offset"))?;
    let trailer = rfind(&pdf, b"trailer", startxref).ok_or_else(|| bad("no trailer"))?;
    let dict = std::str::from_utf8(&pdf[trailer + 7..startxref])
        .map_err(|_| bad("trailer"))?
        .trim();
    let dict = dict
        .strip_suffix(">>")
        .ok_or_else(|| bad("trailer dictionary"))?
        .trim_end()
        .to_owned();

    if pdf.last() != Some(&b'\n') {
        pdf.push(b'\n');
    }
    let offset = pdf.len();
    pdf.extend_from_slice(
        format!(
            "{number} {generation} obj\n<<\n  /Type /Metadata\n  /Subtype /XML\n  /Length {}\n>>\nstream\n",
            content.len()
        )
        .as_bytes(),
    );
    pdf.extend_from_slice(&content);
    pdf.extend_from_slice(b"\nendstream\nendobj\n\n");
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!(
            "xref\n{number} 1\n{offset:010} {generation:05} n\r\ntrailer\n{dict}\n  /Prev {prev}\n>>\nstartxref\n{xref}\n%%EOF\n"
        )
        .as_bytes(),
    );
    Ok(pdf)
}
