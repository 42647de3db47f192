//! Rendered PDFs, kept in memory by the version of what they show (issue 47, item 3).
//!
//! A PDF is a pure function of its [`Document`] and the paper (crm-render has no clock:
//! the same document gives the same bytes), and the document a function of the record as
//! read, today's date (an estimate's status in words) and the settings (company name,
//! public URL, paper). So a PDF is rendered once per version and served from memory after
//! that.
//!
//! - **The key** is a SHA-256 digest of the kind, the id, **the record's version**
//!   ([`crm_store_pg::Versioned`]: a digest, made by
//!   PostgreSQL, of every column the record's read returns, with each line's row version
//!   in place of its content), today, the company name, the public URL and the paper. Any
//!   change of the record (its lines, taxes, client name, payments, link, decision) or of
//!   the settings makes a new key, so a stale PDF cannot be served; a column added to the
//!   record's read later is part of the version with no change here. Finding a kept PDF
//!   costs that statement, a fraction of reading the record: the record is read, and its
//!   document built, only to render.
//! - **The entity tag** is a digest of the PDF's bytes (strong: it changes exactly when the
//!   bytes do, and every instance of the service computes the same one).
//! - **A byte budget** ([`Presentation::pdf_cache_bytes`](super::Presentation),
//!   `--pdf-cache`, [`DEFAULT_BUDGET`]) bounds what is kept: the least recently served PDFs leave first,
//!   and one larger than the whole budget is served but not kept. A budget of 0 turns the
//!   cache off: every request renders, as before issue 47.
//! - **One rendering per version at a time** (single flight): concurrent requests for a
//!   version that is not kept yet wait for the one rendering in progress instead of each
//!   starting their own.
//! - **Off the async workers**: rendering takes tens to hundreds of milliseconds of CPU, so
//!   it runs on tokio's blocking pool ([`super::Renderer`]).

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crm_render::{Document, Paper};
use sha2::{Digest, Sha256};
use tokio::sync::OnceCell;

use super::Renderer;
use crate::error::ApiError;

/// The default byte budget of the PDF cache: 32 MiB (a 2-page PDF is about 30 KB, a
/// 250-page one about 0.5 MB).
pub const DEFAULT_BUDGET: usize = 32 * 1024 * 1024;

/// What an entry costs beyond its bytes and tag: the map slots, the order index, the
/// reference counts.
const ENTRY_OVERHEAD: usize = 256;

/// A PDF ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pdf {
    /// The PDF's bytes (shared with the cache: cloning costs nothing).
    pub bytes: Arc<[u8]>,
    /// Its strong entity tag (`"…"`), a digest of the bytes.
    pub etag: Arc<str>,
    /// `estimate-12.pdf` / `invoice-7.pdf`.
    pub file_name: String,
}

/// The cache's figures now, for `/metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PdfCacheStatus {
    /// The byte budget (0: the cache is off).
    pub budget: usize,
    /// Bytes kept now (PDFs, tags and the per-entry overhead); never more than `budget`.
    pub bytes: usize,
    /// PDFs kept now.
    pub entries: usize,
    /// Requests served from memory.
    pub hits: u64,
    /// Requests that found no kept PDF (they rendered, or waited for the rendering of the
    /// same version in progress).
    pub misses: u64,
    /// Renderings started.
    pub renders: u64,
}

/// The digest a PDF is kept under.
type Key = [u8; 32];

/// A rendered PDF and its tag.
#[derive(Debug, Clone)]
struct Rendered {
    bytes: Arc<[u8]>,
    etag: Arc<str>,
    file_name: Arc<str>,
}

impl Rendered {
    fn pdf(&self) -> Pdf {
        Pdf {
            bytes: Arc::clone(&self.bytes),
            etag: Arc::clone(&self.etag),
            file_name: self.file_name.to_string(),
        }
    }

    /// What keeping it costs against the budget.
    fn cost(&self) -> usize {
        self.bytes.len() + self.etag.len() + self.file_name.len() + ENTRY_OVERHEAD
    }
}

/// The key of a PDF: SHA-256 over `parts` (the kind, the id, the record's version, today,
/// the settings), each preceded by its length, so that no two lists of parts write the
/// same bytes.
pub fn key_of(parts: &[&str]) -> [u8; 32] {
    let mut digest = Sha256::new();
    for part in parts {
        digest.update((part.len() as u64).to_be_bytes());
        digest.update(part.as_bytes());
    }
    digest.finalize().into()
}

/// The PDFs kept, least recently served first out, within a byte budget.
#[derive(Debug, Default)]
struct Kept {
    entries: HashMap<Key, (Rendered, u64)>,
    /// Each entry's last use (a tick) → its key: the first is the next to go.
    order: BTreeMap<u64, Key>,
    tick: u64,
    bytes: usize,
}

impl Kept {
    fn next_tick(&mut self) -> u64 {
        self.tick += 1;
        self.tick
    }

    /// The PDF kept under `key`, now the most recently served.
    fn get(&mut self, key: &Key) -> Option<Rendered> {
        let tick = self.next_tick();
        let (rendered, used) = self.entries.get_mut(key)?;
        self.order.remove(used);
        *used = tick;
        self.order.insert(tick, *key);
        Some(rendered.clone())
    }

    /// Keeps `rendered` under `key`, letting the least recently served go until it fits
    /// in `budget`; one that alone exceeds the budget is not kept.
    fn put(&mut self, key: Key, rendered: Rendered, budget: usize) {
        if self.get(&key).is_some() {
            return;
        }
        let cost = rendered.cost();
        if cost > budget {
            return;
        }
        while self.bytes + cost > budget {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            if let Some((gone, _)) = self.entries.remove(&oldest) {
                self.bytes -= gone.cost();
            }
        }
        let tick = self.next_tick();
        self.order.insert(tick, key);
        self.entries.insert(key, (rendered, tick));
        self.bytes += cost;
    }
}

#[derive(Debug, Default)]
struct State {
    kept: Kept,
    /// The renderings in progress, by key: a request for the same version waits on its
    /// cell rather than rendering again.
    pending: HashMap<Key, Arc<OnceCell<Rendered>>>,
}

/// The PDF cache of the service's [`Documents`](super::Documents) (see the module's notes).
#[derive(Debug)]
pub struct PdfCache {
    budget: usize,
    state: Mutex<State>,
    hits: AtomicU64,
    misses: AtomicU64,
    renders: AtomicU64,
}

/// A request's part in a rendering in progress: when it ends (done, failed, or the
/// request dropped), the rendering is no longer pending under its key, unless another
/// took its place.
struct Flight<'a> {
    cache: &'a PdfCache,
    key: Key,
    cell: Arc<OnceCell<Rendered>>,
}

impl Drop for Flight<'_> {
    fn drop(&mut self) {
        let mut state = self.cache.lock();
        if state
            .pending
            .get(&self.key)
            .is_some_and(|cell| Arc::ptr_eq(cell, &self.cell))
        {
            state.pending.remove(&self.key);
        }
    }
}

impl PdfCache {
    /// A cache keeping at most `budget` bytes (0: none, every request renders).
    pub fn new(budget: usize) -> PdfCache {
        PdfCache {
            budget,
            state: Mutex::new(State::default()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            renders: AtomicU64::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The PDF kept under `key` ([`key_of`]); else the PDF of the document `doc` gives, on
    /// `paper`, rendered now (once for all the requests that want it meanwhile: only the
    /// first awaits `doc`) and kept when it fits the budget.
    pub async fn get(
        &self,
        key: [u8; 32],
        paper: Paper,
        renderer: &Renderer,
        doc: impl Future<Output = Result<Document, ApiError>>,
    ) -> Result<Pdf, ApiError> {
        if self.budget == 0 {
            self.misses.fetch_add(1, Ordering::Relaxed);
            return Ok(self.render(renderer, doc.await?, paper).await?.pdf());
        }
        let flight = {
            let mut state = self.lock();
            if let Some(kept) = state.kept.get(&key) {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(kept.pdf());
            }
            Flight {
                cache: self,
                key,
                cell: Arc::clone(state.pending.entry(key).or_default()),
            }
        };
        self.misses.fetch_add(1, Ordering::Relaxed);
        let rendered = flight
            .cell
            .get_or_try_init(|| async { self.render(renderer, doc.await?, paper).await })
            .await?
            .clone();
        // Kept before the flight leaves `pending` (its drop, below), under the same lock
        // order: a request in between finds one or the other.
        self.lock().kept.put(key, rendered.clone(), self.budget);
        drop(flight);
        Ok(rendered.pdf())
    }

    /// Renders on the blocking pool.
    async fn render(
        &self,
        renderer: &Renderer,
        doc: Document,
        paper: Paper,
    ) -> Result<Rendered, ApiError> {
        self.renders.fetch_add(1, Ordering::Relaxed);
        let file_name = Arc::from(doc.pdf_file_name());
        let bytes = renderer
            .run(move || crm_render::pdf::render(&doc, paper))
            .await?;
        // The same digest as a record's tag, of the PDF's bytes.
        let etag = crm_store_pg::etag_of_json(&bytes);
        Ok(Rendered {
            bytes: Arc::from(bytes),
            etag: Arc::from(etag),
            file_name,
        })
    }

    /// The figures now.
    pub fn status(&self) -> PdfCacheStatus {
        let (bytes, entries) = {
            let state = self.lock();
            (state.kept.bytes, state.kept.entries.len())
        };
        PdfCacheStatus {
            budget: self.budget,
            bytes,
            entries,
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            renders: self.renders.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(size: usize) -> Rendered {
        Rendered {
            bytes: Arc::from(vec![7u8; size]),
            etag: Arc::from("\"0123456789abcdef0123456789abcdef\""),
            file_name: Arc::from("estimate-1.pdf"),
        }
    }

    fn key(n: u8) -> Key {
        [n; 32]
    }

    #[test]
    fn the_kept_bytes_never_exceed_the_budget() {
        let budget = 10_000;
        let mut kept = Kept::default();
        // Sizes that do not divide the budget, some close to it, one over it.
        let sizes = [
            1_000, 3_500, 9_000, 200, 4_100, 12_000, 700, 2_600, 9_700, 50,
        ];
        for round in 0..20u8 {
            for (i, size) in sizes.iter().enumerate() {
                let k = key(round.wrapping_mul(11).wrapping_add(i as u8));
                kept.put(k, rendered(*size), budget);
                assert!(kept.bytes <= budget, "{} > {budget}", kept.bytes);
                let counted: usize = kept.entries.values().map(|(r, _)| r.cost()).sum();
                assert_eq!(kept.bytes, counted);
                assert_eq!(kept.order.len(), kept.entries.len());
            }
        }
        // One larger than the whole budget is not kept, and takes nothing out.
        let before = kept.entries.len();
        kept.put(key(250), rendered(budget), budget);
        assert!(kept.get(&key(250)).is_none());
        assert_eq!(kept.entries.len(), before);
    }

    #[test]
    fn the_least_recently_served_goes_first() {
        let one = rendered(1_000).cost();
        let budget = 3 * one;
        let mut kept = Kept::default();
        for n in 1..=3 {
            kept.put(key(n), rendered(1_000), budget);
        }
        // 1 is served again, so 2 is now the least recently served.
        assert!(kept.get(&key(1)).is_some());
        kept.put(key(4), rendered(1_000), budget);
        assert!(kept.get(&key(2)).is_none());
        for n in [1, 3, 4] {
            assert!(kept.get(&key(n)).is_some(), "{n}");
        }
        // Putting a kept key again keeps one copy.
        kept.put(key(4), rendered(1_000), budget);
        assert_eq!(kept.entries.len(), 3);
        assert_eq!(kept.bytes, budget);
    }

    /// A sample estimate of five lines, as the service would show it.
    fn document() -> Document {
        let input = crm_render::sample::input(5).unwrap();
        let estimate = crm_render::sample::estimate(&input, &crm_render::sample::texts).unwrap();
        let context = crm_render::document::Context {
            company: "CRM",
            link: Some("https://crm.example.com/c/0123"),
            ..Default::default()
        };
        Document::estimate(&estimate, context)
    }

    #[test]
    fn keys_are_the_parts_in_order_and_never_two_lists_alike() {
        let base = [
            "estimate",
            "12",
            "v1",
            "2026-11-28",
            "CRM",
            "http://x",
            "a4",
        ];
        assert_eq!(key_of(&base), key_of(&base), "stable");
        for i in 0..base.len() {
            let mut changed = base;
            let other = format!("{}!", base[i]);
            changed[i] = &other;
            assert_ne!(key_of(&base), key_of(&changed), "part {i}");
        }
        // Moving text from one part to the next is another key.
        assert_ne!(key_of(&["ab", "c"]), key_of(&["a", "bc"]));
        assert_ne!(key_of(&["ab"]), key_of(&["a", "b"]));
    }

    #[tokio::test]
    async fn a_version_is_rendered_once_and_concurrent_requests_share_it() {
        let cache = Arc::new(PdfCache::new(DEFAULT_BUDGET));
        let doc = document();
        let key = key_of(&["estimate", "1", "v1"]);
        let requests = (0..8).map(|_| {
            let cache = Arc::clone(&cache);
            let doc = doc.clone();
            tokio::spawn(async move {
                cache
                    .get(key, Paper::A4, &Renderer::default(), async { Ok(doc) })
                    .await
            })
        });
        let pdfs: Vec<Pdf> = futures_util::future::try_join_all(requests)
            .await
            .unwrap()
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(pdfs.iter().all(|p| p == &pdfs[0]));
        assert!(pdfs[0].bytes.starts_with(b"%PDF-"));
        // Kept: the document is not even asked for.
        let again = cache
            .get(key, Paper::A4, &Renderer::default(), async {
                Err(ApiError::Internal("not read".into()))
            })
            .await
            .unwrap();
        assert_eq!(again, pdfs[0]);
        let status = cache.status();
        assert_eq!(status.renders, 1, "{status:?}");
        assert_eq!(status.hits + status.misses, 9, "{status:?}");
        assert!(status.hits >= 1, "{status:?}");
        assert_eq!(status.entries, 1);
        assert_eq!(
            status.bytes,
            pdfs[0].bytes.len() + pdfs[0].etag.len() + pdfs[0].file_name.len() + 256
        );
        assert_eq!(pdfs[0].file_name, doc.pdf_file_name());
        assert!(cache.lock().pending.is_empty());
        // Another key is another rendering.
        let letter_key = key_of(&["estimate", "1", "v1", "letter"]);
        let letter = cache
            .get(letter_key, Paper::Letter, &Renderer::default(), async {
                Ok(doc)
            })
            .await
            .unwrap();
        assert_ne!(letter.etag, pdfs[0].etag);
        assert_eq!(cache.status().renders, 2);
        // A failed read renders nothing and keeps nothing.
        let failed = cache
            .get(key_of(&["x"]), Paper::A4, &Renderer::default(), async {
                Err(ApiError::Internal("gone".into()))
            })
            .await;
        assert!(failed.is_err());
        assert_eq!(cache.status().renders, 2);
        assert!(cache.lock().pending.is_empty());
    }

    #[tokio::test]
    async fn a_budget_of_zero_renders_every_time_and_keeps_nothing() {
        let cache = PdfCache::new(0);
        let key = key_of(&["estimate", "1"]);
        let first = cache
            .get(key, Paper::A4, &Renderer::default(), async {
                Ok(document())
            })
            .await
            .unwrap();
        let second = cache
            .get(key, Paper::A4, &Renderer::default(), async {
                Ok(document())
            })
            .await
            .unwrap();
        assert_eq!(
            first, second,
            "the same document gives the same bytes and tag"
        );
        let status = cache.status();
        assert_eq!((status.renders, status.hits, status.entries), (2, 0, 0));
    }
}
