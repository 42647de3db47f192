//! The `crm` command (see [`crm_http::ops::cli`]).
//!
//! Its allocator is jemalloc with background threads: pages freed by closed connections and
//! finished answers go back to the system after jemalloc's decay time (10 s). glibc's
//! allocator kept them: 10,000 idle connections took RSS from 26 MB to 217 MB, and it stayed
//! there after they closed; with jemalloc it came back to 36 MB (docs/operations.md).

#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    #[cfg(not(target_env = "msvc"))]
    if let Err(e) = tikv_jemalloc_ctl::background_thread::write(true) {
        eprintln!(
            "warning: jemalloc's background threads could not start ({e}); freed memory goes \
             back to the system only as the service allocates"
        );
    }
    crm_http::ops::cli::main()
}
