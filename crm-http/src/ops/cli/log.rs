//! Where `crm`'s log lines go: standard error, through one buffer that the threads which log
//! write into under a lock.
//!
//! A line is formatted by the thread that logs it and copied into the buffer whole, so lines
//! never interleave and none is dropped. The access log's lines (`crm::access`, one per
//! request) stay in the buffer until it fills, [`FLUSH_EVERY`] passes, or the command ends
//! ([`Flush`]): no thread is woken per request, where a channel to a writer thread cost a
//! futex wake and two task switches per request (issue 55's profile: 7 % of the service's
//! CPU on a GET). Every other line (start, warnings, errors, the workers' reports) leaves at
//! once, with what waited before it.

use std::io::{BufWriter, Stderr, Write};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

/// The longest a line waits in the buffer while the process runs.
pub(crate) const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// The buffer's size: a burst of lines leaves in writes of this size.
const CAPACITY: usize = 64 * 1024;

static BUFFER: OnceLock<Mutex<BufWriter<Stderr>>> = OnceLock::new();

fn buffer() -> MutexGuard<'static, BufWriter<Stderr>> {
    BUFFER
        .get_or_init(|| Mutex::new(BufWriter::with_capacity(CAPACITY, std::io::stderr())))
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// The access log's target: its lines wait in the buffer.
const ACCESS: &str = "crm::access";

/// Makes the writer of each log line ([`LogLine`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LogWriter;

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogWriter {
    type Writer = LogLine;

    fn make_writer(&'a self) -> LogLine {
        LogLine { at_once: true }
    }

    fn make_writer_for(&'a self, meta: &tracing::Metadata<'_>) -> LogLine {
        LogLine {
            at_once: meta.target() != ACCESS,
        }
    }
}

/// A writer of one log line into the shared buffer: written out at once, or left to wait
/// (an access log line).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LogLine {
    at_once: bool,
}

impl Write for LogLine {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut buffer = buffer();
        let written = buffer.write(bytes)?;
        if self.at_once {
            buffer.flush()?;
        }
        Ok(written)
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let mut buffer = buffer();
        buffer.write_all(bytes)?;
        if self.at_once {
            buffer.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        buffer().flush()
    }
}

/// Flushes the buffer when dropped (at the end of `main`); while it lives, a thread flushes
/// it every [`FLUSH_EVERY`].
#[derive(Debug)]
pub(crate) struct Flush;

impl Flush {
    /// Starts the periodic flush.
    pub(crate) fn start() -> Flush {
        // A thread that cannot start leaves the lines to the full buffer and the final
        // flush: still every line, later.
        let _ = std::thread::Builder::new()
            .name("log-flush".into())
            .spawn(|| {
                loop {
                    std::thread::sleep(FLUSH_EVERY);
                    let _ = buffer().flush();
                }
            });
        Flush
    }
}

impl Drop for Flush {
    fn drop(&mut self) {
        let _ = buffer().flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_access_line_waits_in_the_buffer_and_any_other_line_takes_it_out() {
        let mut access = LogLine { at_once: false };
        access.write_all(b"log test: an access line ").unwrap();
        assert!(buffer().buffer().ends_with(b"an access line "));
        let mut other = LogLine { at_once: true };
        other.write_all(b"waited for this one\n").unwrap();
        assert!(buffer().buffer().is_empty());
    }
}
