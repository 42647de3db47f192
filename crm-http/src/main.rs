//! The `crm` command (see [`crm_http::ops::cli`]).

fn main() -> std::process::ExitCode {
    crm_http::ops::cli::main()
}
