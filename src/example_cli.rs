//! The command-line conventions every example follows: `-h`/`--help` prints its usage and
//! exits 0, and a failure is printed as one plain sentence (`name: message`, the error's
//! `Display`, never its `Debug` form) with exit status 1.

use std::error::Error;
use std::process::ExitCode;

/// Whether the arguments ask for help (`-h` or `--help` anywhere).
pub fn asks_for_help(mut args: impl Iterator<Item = String>) -> bool {
    args.any(|a| a == "-h" || a == "--help")
}

/// Prints `usage` to standard output and returns true when this program's arguments ask for
/// help; the caller then exits with success.
pub fn help_requested(usage: &str) -> bool {
    let asked = asks_for_help(std::env::args().skip(1));
    if asked {
        println!("{}", usage.trim_end());
    }
    asked
}

/// The line printed for a failure: `name: message`, the message in its `Display` form.
pub fn failure_line(name: &str, error: &dyn Error) -> String {
    format!("{name}: {error}")
}

/// The exit status for `result`, printing a failure as [`failure_line`] on standard error.
pub fn finish(name: &str, result: Result<(), Box<dyn Error>>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{}", failure_line(name, error.as_ref()));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> impl Iterator<Item = String> {
        list.iter()
            .map(|s| (*s).to_owned())
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn help_is_asked_by_either_flag_anywhere() {
        assert!(asks_for_help(args(&["--help"])));
        assert!(asks_for_help(args(&["x", "-h"])));
        assert!(!asks_for_help(args(&["--policy", "exact"])));
        assert!(!asks_for_help(args(&["--helpful"])));
    }

    #[test]
    fn failures_are_plain_sentences_not_debug_text() {
        let error: Box<dyn Error> = "give CRM_API_KEY (argument 2 or environment variable)".into();
        assert_eq!(
            failure_line("http_estimate_flow", error.as_ref()),
            "http_estimate_flow: give CRM_API_KEY (argument 2 or environment variable)"
        );
    }
}
