//! Build script: assembles the OpenAPI document from the route table (`src/router.rs`) and
//! the definitions beside the handlers (`src/routes.openapi.json`,
//! `src/routes/*.openapi.json`, `src/openapi/*.json`), and compresses what the service
//! serves unchanged (the document, the reference page's script) once, at the best settings,
//! so no request waits for it. A route without a definition (or the reverse) fails the build.
//!
//! Outputs, in `OUT_DIR`: `openapi.json` and, for it and `redoc.standalone.js`, `<name>.br`
//! and `<name>.gz`.

use std::io::Write;
use std::path::{Path, PathBuf};

#[path = "src/openapi/assemble/mod.rs"]
mod assemble;

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").ok_or("CARGO_MANIFEST_DIR is not set")?;
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?);
    let src = Path::new(&manifest).join("src");
    for watched in [
        "src/router.rs",
        "src/routes.openapi.json",
        "src/routes",
        "src/openapi",
        "assets/redoc/redoc.standalone.js",
    ] {
        println!("cargo::rerun-if-changed={watched}");
    }

    let router = std::fs::read_to_string(src.join("router.rs"))
        .map_err(|e| format!("src/router.rs: {e}"))?;
    let routes = assemble::route_rows(&router)?;
    let sources = assemble::read_sources(&src)?;
    let document = assemble::assemble(&routes, &sources)?;
    let mut text = serde_json::to_string_pretty(&document).map_err(|e| e.to_string())?;
    text.push('\n');
    write(&out.join("openapi.json"), text.as_bytes())?;
    compressed(&out, "openapi.json", text.as_bytes())?;

    let script = Path::new(&manifest).join("assets/redoc/redoc.standalone.js");
    let script = std::fs::read(&script).map_err(|e| format!("{}: {e}", script.display()))?;
    compressed(&out, "redoc.standalone.js", &script)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `<name>.br` and `<name>.gz` of `bytes` into `out`, unless they are already there for
/// these bytes (`<name>.source` keeps what they were made from): the script's best brotli
/// takes seconds, and the build script reruns whenever a handler file changes.
fn compressed(out: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let source = out.join(format!("{name}.source"));
    let brotli = out.join(format!("{name}.br"));
    let gzip = out.join(format!("{name}.gz"));
    if brotli.exists() && gzip.exists() && std::fs::read(&source).is_ok_and(|kept| kept == bytes) {
        return Ok(());
    }
    let failed = |e: std::io::Error| format!("compressing {name}: {e}");
    let mut br = Vec::with_capacity(bytes.len() / 4);
    {
        // Quality 11 with a 4 MiB window: the smallest output; the bytes never change.
        let mut writer = brotli::CompressorWriter::new(&mut br, 4096, 11, 22);
        writer.write_all(bytes).map_err(failed)?;
        writer.flush().map_err(failed)?;
    }
    let mut gz = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 3),
        flate2::Compression::best(),
    );
    gz.write_all(bytes).map_err(failed)?;
    let gz = gz.finish().map_err(failed)?;
    write(&brotli, &br)?;
    write(&gzip, &gz)?;
    write(&source, bytes)
}
