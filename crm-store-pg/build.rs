//! Build script: the list of migrations is the `migrations/` folder itself. Every file there
//! must be named `NNNN_name.sql` (four digits, then lower-case letters, digits and `_`), the
//! numbers must run 1, 2, 3, … without a gap or a repeat, and nothing else may be in the
//! folder: a file that breaks these rules fails the build, so none is ever skipped.
//!
//! Output: `OUT_DIR/migrations.rs`, the `MIGRATIONS` slice (`include!`d by `src/migrate.rs`).

use std::path::PathBuf;

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    println!("cargo::rerun-if-changed=migrations");
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").ok_or("CARGO_MANIFEST_DIR is not set")?;
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?);
    let folder = PathBuf::from(manifest).join("migrations");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| format!("{n:?}: not UTF-8"))?;
        files.push(name);
    }
    files.sort();
    let mut rust = String::from("&[\n");
    for (index, file) in files.iter().enumerate() {
        let (version, name) = parse(file)?;
        if version != index + 1 {
            return Err(format!(
                "migrations/{file}: expected number {:04} (the numbers run 1, 2, 3, … without a gap)",
                index + 1
            ));
        }
        rust.push_str(&format!(
            "    Migration {{ version: {version}, name: {name:?}, sql: include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/migrations/{file}\")) }},\n"
        ));
    }
    rust.push(']');
    std::fs::write(out.join("migrations.rs"), rust).map_err(|e| e.to_string())
}

/// `0012_one_delta_per_write.sql` → (12, "one_delta_per_write").
fn parse(file: &str) -> Result<(usize, &str), String> {
    let bad = || {
        format!(
            "migrations/{file}: a migration is named NNNN_name.sql (four digits, then a-z, 0-9 and _)"
        )
    };
    let stem = file.strip_suffix(".sql").ok_or_else(bad)?;
    let (number, name) = stem.split_once('_').ok_or_else(bad)?;
    let well_formed = number.len() == 4
        && number.bytes().all(|b| b.is_ascii_digit())
        && !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if !well_formed {
        return Err(bad());
    }
    let version = number.parse().map_err(|_| bad())?;
    Ok((version, name))
}
