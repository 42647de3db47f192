//! Every example answers `--help` (exit 0, its usage on standard output) and reports a
//! failure as one plain sentence, never Debug-quoted; `store_direct` writes nowhere unless
//! told where.
//!
//! The examples are the binaries `cargo test` builds beside this test (in
//! `target/<profile>/examples/`); `cargo test --workspace` builds them first.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Output};

const EXAMPLES: [&str; 5] = [
    "estimate_totals",
    "http_estimate_flow",
    "policy_agreement",
    "store_direct",
    "totals_quickstart",
];

fn example(name: &str) -> Command {
    // This test runs from target/<profile>/deps/; the examples are in target/<profile>/examples/.
    let exe = std::env::current_exe().unwrap();
    let path: PathBuf = exe
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .join("examples")
        .join(name);
    assert!(
        path.is_file(),
        "{} is missing: the examples are built by `cargo test --workspace` (or `cargo build --examples`)",
        path.display()
    );
    let mut command = Command::new(path);
    command
        .env_remove("DATABASE_URL")
        .env_remove("CRM_URL")
        .env_remove("CRM_API_KEY");
    command
}

fn run(name: &str, args: &[&str]) -> Output {
    example(name).args(args).output().unwrap()
}

#[test]
fn every_example_answers_help() {
    for name in EXAMPLES {
        for flag in ["--help", "-h"] {
            let output = run(name, &[flag]);
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert_eq!(output.status.code(), Some(0), "{name} {flag}: {stdout}");
            assert!(stdout.starts_with(&format!("{name}: ")), "{name}: {stdout}");
            assert!(stdout.contains("usage: "), "{name}: {stdout}");
        }
    }
}

#[test]
fn failures_are_plain_sentences() {
    let cases: [(&str, &[&str], &str); 4] = [
        (
            "http_estimate_flow",
            &[],
            "http_estimate_flow: give CRM_API_KEY (argument 2 or environment variable; --help for usage)",
        ),
        (
            "estimate_totals",
            &["--policy", "fast"],
            "estimate_totals: unknown policy fast (parity or exact)",
        ),
        (
            "policy_agreement",
            &["many"],
            "policy_agreement: COUNT must be a whole number, not many (--help for usage)",
        ),
        (
            "store_direct",
            &[],
            "store_direct: name the database to write to: store_direct DATABASE_URL, or set DATABASE_URL (--help for usage)",
        ),
    ];
    for (name, args, expected) in cases {
        let output = run(name, args);
        assert_ne!(output.status.code(), Some(0), "{name}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().next(), Some(expected), "{name}: {stderr}");
        assert!(!stderr.contains('"'), "{name} quotes its error: {stderr}");
    }
}

#[test]
fn the_estimate_totals_usage_shows_a_line_it_accepts() {
    let usage = String::from_utf8_lossy(&run("estimate_totals", &["--help"]).stdout).to_string();
    let line = usage
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("{\"tax_type\""))
        .take(2)
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("");
    use std::io::Write;
    let mut child = example("estimate_totals")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{line}").unwrap();
    let output = child.wait_with_output().unwrap();
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        answer["totals"]["final_amount"], "247.50",
        "{line} → {answer}"
    );
}
