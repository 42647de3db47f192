//! What a person sees of a record: the client's page, the PDF, the emails (issue 46).
//!
//! The store renders nothing: it gives records (and, for PDFs, their versions), and queues
//! a message's place for its caller to compose. This module composes them with crm-render
//! and the service's [`Presentation`] (the company, the paper, whether the email carries
//! the PDF):
//!
//! - PDFs are rendered once per version and kept in memory ([`pdfs`]);
//! - a write that emailed (publish, send-email, a client's decision) gives the record as
//!   committed and the message to compose ([`crm_store_pg::messages`]): [`Documents::compose`]
//!   renders it and stores it after the commit, off the record's lock, and the delivery
//!   workers send it then;
//! - `crm serve`'s upkeep composes what a stopped process left ([`Documents::compose_left`]).
//!
//! Every rendering runs on tokio's blocking pool ([`Renderer`]), never on an async worker:
//! a PDF takes tens to hundreds of milliseconds of CPU.

pub mod einvoices;
pub mod pdfs;

use std::sync::Arc;
use std::time::Duration;

use chrono::NaiveDate;
use crm_core::bill::{BillKind, ClientLink, EstimateKind, InvoiceKind};
use crm_core::credit_note::CreditNote;
use crm_core::estimate::Estimate;
use crm_core::ids::{ClientId, CreditNoteId};
use crm_core::invoice::Invoice;
use crm_core::party::Parties as IssuedParties;
use crm_render::document::Context;
use crm_render::document::{Party, PaymentDetails};
use crm_render::{Document, Paper, RenderError};
use crm_store_pg::client::{Notice, OpenedVersion};
use crm_store_pg::messages::{
    Attached, Emailed, Letterhead, Message, Template, ToCompose, Uncomposed,
};
use crm_store_pg::{Store, StoredKind, Versioned};
use sha2::{Digest, Sha256};

use self::pdfs::{Pdf, PdfCache, PdfCacheStatus};
use crate::error::ApiError;

/// How the service presents records (`crm serve --company-name`, `--paper`,
/// `--mail-attach-pdf`, `--mail-attach-einvoice`, `--pdf-cache`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presentation {
    /// The company's name, shown on the page, the PDF and in emails.
    pub company: String,
    /// The PDF's paper.
    pub paper: Paper,
    /// Whether a bill's email carries its PDF.
    pub attach_pdf: bool,
    /// The e-invoice format an invoice's or credit note's email carries and its page
    /// offers for download (`None`: neither). With Factur-X, that PDF replaces the plain
    /// one in the email.
    pub einvoice: Option<crm_einvoice::Format>,
    /// The bytes of rendered PDFs kept in memory (0: none, every request renders).
    pub pdf_cache_bytes: usize,
}

impl Default for Presentation {
    fn default() -> Presentation {
        Presentation {
            company: "CRM".to_owned(),
            paper: Paper::A4,
            attach_pdf: false,
            einvoice: None,
            pdf_cache_bytes: pdfs::DEFAULT_BUDGET,
        }
    }
}

impl Presentation {
    /// The digest of what a message depends on besides its record: the company, the paper,
    /// whether the PDF is attached and the e-invoice's format, if any (each
    /// length-prefixed; without an e-invoice the digest is what it was before there were
    /// e-invoices, so messages composed then are still reused).
    pub fn letterhead(&self) -> Letterhead {
        let mut hasher = Sha256::new();
        let einvoice = self.einvoice.map(crm_einvoice::Format::name);
        let parts = [
            self.company.as_bytes(),
            self.paper.name().as_bytes(),
            &[u8::from(self.attach_pdf)],
        ];
        for part in parts.into_iter().chain(einvoice.map(str::as_bytes)) {
            hasher.update(u64::try_from(part.len()).unwrap_or(u64::MAX).to_be_bytes());
            hasher.update(part);
        }
        Letterhead(hasher.finalize().into())
    }
}

/// A hook the renderer calls on the blocking thread before each rendering (tests hold a
/// rendering with it).
pub type RenderHook = Arc<dyn Fn() + Send + Sync>;

/// Runs crm-render's functions on tokio's blocking pool.
#[derive(Clone, Default)]
pub struct Renderer {
    hook: Option<RenderHook>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("hook", &self.hook.is_some())
            .finish()
    }
}

impl Renderer {
    /// Runs `job` on the blocking pool (after the hook, if any).
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> Result<T, RenderError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let hook = self.hook.clone();
        tokio::task::spawn_blocking(move || {
            if let Some(hook) = hook {
                hook();
            }
            job()
        })
        .await
        .map_err(|e| ApiError::Internal(format!("rendering stopped: {e}")))?
        .map_err(rendering)
    }
}

/// A template or PDF failure: an internal fault.
pub fn rendering(e: RenderError) -> ApiError {
    ApiError::Internal(format!("rendering: {e}"))
}

/// A kind of bill a person sees: its record as a crm-render [`Document`].
pub trait Shown: StoredKind {
    /// The document of `record`, issued by `parties.seller` under the name `company` to
    /// `parties.buyer`.
    fn document(record: &Self::Record, company: &str, parties: &Parties) -> Document;

    /// The client the bill is for.
    fn client_id(record: &Self::Record) -> ClientId;

    /// The parties the bill was issued with (`None`: not issued, or issued before they
    /// were kept; its documents then name them as they are now).
    fn issued_parties(record: &Self::Record) -> Option<&IssuedParties>;

    /// What its e-invoice is made from (`None`: the kind has none, or the bill is not
    /// issued).
    fn einvoice_source(record: &Self::Record) -> Option<crm_einvoice::Source<'_>>;
}

/// Who a document is from and to, as the company's settings and the client's record name
/// them now (API.md §17).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parties {
    /// The seller.
    pub seller: Option<Party>,
    /// The buyer (`None`: the client's name on the record alone).
    pub buyer: Option<Party>,
    /// How invoices are paid, as the company's settings say.
    pub payment: Option<PaymentDetails>,
}

/// The context of a bill's document: the company, the bill's link, the parties.
fn context<'a>(
    company: &'a str,
    link: Option<&'a ClientLink>,
    parties: &'a Parties,
) -> Context<'a> {
    Context {
        company,
        link: link.map(|l| l.url.as_str()),
        seller: parties.seller.as_ref(),
        buyer: parties.buyer.as_ref(),
        payment: parties.payment.as_ref(),
    }
}

impl Shown for EstimateKind {
    fn document(record: &Estimate, company: &str, parties: &Parties) -> Document {
        let context = context(company, record.client_link.as_ref(), parties);
        Document::estimate(record, context)
    }

    fn client_id(record: &Estimate) -> ClientId {
        record.client.id
    }

    fn issued_parties(_: &Estimate) -> Option<&IssuedParties> {
        None
    }

    fn einvoice_source(_: &Estimate) -> Option<crm_einvoice::Source<'_>> {
        None
    }
}

impl Shown for InvoiceKind {
    fn document(record: &Invoice, company: &str, parties: &Parties) -> Document {
        let context = context(company, record.client_link.as_ref(), parties);
        Document::invoice(record, context)
    }

    fn client_id(record: &Invoice) -> ClientId {
        record.client.id
    }

    fn issued_parties(record: &Invoice) -> Option<&IssuedParties> {
        record.parties.as_ref()
    }

    fn einvoice_source(record: &Invoice) -> Option<crm_einvoice::Source<'_>> {
        record
            .number
            .as_ref()
            .map(|_| crm_einvoice::Source::invoice(record))
    }
}

/// The service's documents: its presentation, the PDF cache and the renderer.
#[derive(Debug)]
pub struct Documents {
    presentation: Presentation,
    letterhead: Letterhead,
    pdfs: PdfCache,
    renderer: Renderer,
}

impl Default for Documents {
    fn default() -> Documents {
        Documents::new(Presentation::default())
    }
}

/// How long a message may wait uncomposed before the upkeep composes it: far longer than
/// the moment between a write's commit and its own composing.
pub const COMPOSE_LEFT_AFTER: Duration = Duration::from_secs(30);

impl Documents {
    /// The documents of `presentation`.
    pub fn new(presentation: Presentation) -> Documents {
        Documents {
            letterhead: presentation.letterhead(),
            pdfs: PdfCache::new(presentation.pdf_cache_bytes),
            presentation,
            renderer: Renderer::default(),
        }
    }

    /// The same, with `hook` called on the blocking thread before every rendering.
    pub fn with_render_hook(mut self, hook: RenderHook) -> Documents {
        self.renderer.hook = Some(hook);
        self
    }

    /// How records are presented.
    pub fn presentation(&self) -> &Presentation {
        &self.presentation
    }

    /// The digest the store keeps messages' versions by.
    pub fn letterhead(&self) -> &Letterhead {
        &self.letterhead
    }

    /// The document of a bill of kind `K`, with its parties as they are now: the company's
    /// settings (its trading name, else `--company-name`, heads the document) and the
    /// client's record.
    pub async fn document<K: Shown>(
        &self,
        store: &Store,
        record: &K::Record,
    ) -> Result<Document, ApiError> {
        // Boxed: the two reads' futures would otherwise swell every handler's that shows a
        // document (the client's page runs on a small stack in the tests).
        let issued = K::issued_parties(record);
        let (company, parties) = Box::pin(parties(store, K::client_id(record), issued)).await?;
        Ok(K::document(record, &company, &parties))
    }

    /// The PDF of the bill `versioned` names: kept in memory when this version was
    /// rendered before (the key: the kind, the id, the version, the day, the public URL
    /// and the presentation), else read and rendered now, once for every request that
    /// wants it meanwhile.
    pub async fn pdf<K: Shown>(&self, versioned: Versioned<'_, K>) -> Result<Pdf, ApiError> {
        let document = async {
            let record = versioned.record().await?;
            self.document::<K>(versioned.store(), &record).await
        };
        let key = [
            K::KIND.template(),
            &K::raw(versioned.id()).to_string(),
            &versioned.version,
            &versioned.today().to_string(),
            versioned.public_url(),
        ];
        self.cached_pdf(&key, document).await
    }

    /// The PDF of credit note `id` as shown on `today`, kept like a bill's by its version
    /// ([`Documents::pdf`]).
    pub async fn credit_note_pdf(
        &self,
        store: &Store,
        id: CreditNoteId,
        today: NaiveDate,
    ) -> Result<Pdf, ApiError> {
        let version = store.credit_note_version(id).await?;
        self.credit_note_pdf_of(store, id, version, today).await
    }

    async fn credit_note_pdf_of(
        &self,
        store: &Store,
        id: CreditNoteId,
        version: String,
        today: NaiveDate,
    ) -> Result<Pdf, ApiError> {
        let document = async {
            let record = store.credit_note_on(today, id).await?;
            self.credit_note_document(store, &record).await
        };
        let key = [
            BillKind::CreditNote.template(),
            &id.get().to_string(),
            &version,
            &today.to_string(),
            &store.client_side().public_url,
        ];
        self.cached_pdf(&key, document).await
    }

    /// The PDF of the document `key` names (the kind, the id, the version, the day, the
    /// public URL; the presentation is added here), rendered from `document` unless kept.
    async fn cached_pdf(
        &self,
        key: &[&str],
        document: impl Future<Output = Result<Document, ApiError>>,
    ) -> Result<Pdf, ApiError> {
        let presentation = &self.presentation;
        let mut parts = key.to_vec();
        parts.extend([presentation.company.as_str(), presentation.paper.name()]);
        self.pdfs
            .get(
                pdfs::key_of(&parts),
                presentation.paper,
                &self.renderer,
                document,
            )
            .await
    }

    /// The document of a credit note, with its parties as they are now (as a bill's:
    /// [`Documents::document`]).
    pub async fn credit_note_document(
        &self,
        store: &Store,
        record: &CreditNote,
    ) -> Result<Document, ApiError> {
        let issued = Some(&record.parties);
        let (company, parties) = Box::pin(parties(store, record.client.id, issued)).await?;
        let link = record.client_link.as_ref();
        Ok(Document::credit_note(
            record,
            context(&company, link, &parties),
        ))
    }

    /// The Factur-X PDF of `document` (API.md §19): a PDF/A-3 of the same layout as its
    /// PDF, carrying `xml` (the CII e-invoice) as `factur-x.xml`, dated `date` (the
    /// document's issue date, so the same document gives the same bytes).
    pub async fn facturx(
        &self,
        document: Document,
        xml: Vec<u8>,
        date: NaiveDate,
    ) -> Result<Vec<u8>, ApiError> {
        use crm_einvoice::facturx;
        let paper = self.presentation.paper;
        let attachment = crm_render::pdf::Attachment {
            name: facturx::FILE_NAME.to_owned(),
            mime_type: facturx::MIME_TYPE.to_owned(),
            description: facturx::DESCRIPTION.to_owned(),
            data: xml,
            date,
            xmp: facturx::XMP.to_owned(),
        };
        self.renderer
            .run(move || crm_render::pdf::render_pdfa3(&document, paper, &attachment))
            .await
    }

    /// The PDF of the bill a client link opens (`None`: a bad link).
    pub async fn link_pdf(
        &self,
        store: &Store,
        token: &str,
        today: NaiveDate,
    ) -> Result<Option<Pdf>, ApiError> {
        let pdf = match store.open_versioned(token, today).await? {
            None => return Ok(None),
            Some(OpenedVersion::Estimate(v)) => self.pdf(v).await,
            Some(OpenedVersion::Invoice(v)) => self.pdf(v).await,
            Some(OpenedVersion::CreditNote(id, version)) => {
                self.credit_note_pdf_of(store, id, version, today).await
            }
        };
        match pdf {
            Ok(pdf) => Ok(Some(pdf)),
            // Deleted between the version and the read: a bad link like any other.
            Err(ApiError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Composes the message an emailing write queued, if any, from the record as that
    /// write committed it, and gives the record back.
    pub async fn compose<K: Shown>(
        &self,
        store: &Store,
        emailed: Emailed<K::Record>,
    ) -> Result<K::Record, ApiError> {
        if let Some(to) = emailed.compose {
            self.compose_bill::<K>(store, &to, &emailed.record).await?;
        }
        Ok(emailed.record)
    }

    /// Composes the message a credit note's send-email queued, if any (as
    /// [`Documents::compose`]), and gives the credit note back.
    pub async fn compose_credit_note(
        &self,
        store: &Store,
        emailed: Emailed<CreditNote>,
    ) -> Result<CreditNote, ApiError> {
        if let Some(to) = emailed.compose {
            let doc = self.credit_note_document(store, &emailed.record).await?;
            let source = crm_einvoice::Source::credit_note(&emailed.record);
            self.compose_document(store, &to, doc, Some(source)).await?;
        }
        Ok(emailed.record)
    }

    /// Composes a bill's email to its client and stores it.
    async fn compose_bill<K: Shown>(
        &self,
        store: &Store,
        to: &ToCompose,
        record: &K::Record,
    ) -> Result<(), ApiError> {
        let doc = self.document::<K>(store, record).await?;
        self.compose_document(store, to, doc, K::einvoice_source(record))
            .await
    }

    /// Composes the email of `doc` to its client and stores it: with its PDF
    /// (`--mail-attach-pdf`) and its e-invoice, made from `einvoice` when the document has
    /// one (`--mail-attach-einvoice`; a Factur-X PDF replaces the plain one).
    async fn compose_document(
        &self,
        store: &Store,
        to: &ToCompose,
        doc: Document,
        einvoice: Option<crm_einvoice::Source<'_>>,
    ) -> Result<(), ApiError> {
        let einvoice = Box::pin(self.mail_einvoice(store, einvoice, &doc)).await?;
        let paper = self.presentation.paper;
        let is_pdf = |file: &Attached| file.media_type == "application/pdf";
        let attach = self.presentation.attach_pdf && !einvoice.as_ref().is_some_and(is_pdf);
        let message = self
            .renderer
            .run(move || {
                let email = crm_render::email::render(&doc)?;
                let attachment = match attach {
                    true => Some(crm_render::pdf::render(&doc, paper)?),
                    false => None,
                };
                Ok(Message {
                    subject: email.subject,
                    text: email.text,
                    html: email.html,
                    attachment,
                    einvoice,
                })
            })
            .await?;
        store.compose(to, &message).await?;
        Ok(())
    }

    /// Composes the notice of a client's decision to the estimate's creator and stores it.
    pub async fn compose_notice(&self, store: &Store, notice: &Notice) -> Result<(), ApiError> {
        let doc = self
            .document::<EstimateKind>(store, &notice.estimate)
            .await?;
        let message = self
            .renderer
            .run(move || crm_render::email::decision_notice(&doc))
            .await?
            .ok_or_else(|| ApiError::Internal("a decision notice of no decision".to_owned()))?;
        let message = Message {
            subject: message.subject,
            text: message.text,
            html: message.html,
            attachment: None,
            einvoice: None,
        };
        store.compose(&notice.compose, &message).await?;
        Ok(())
    }

    /// Composes up to `limit` messages left uncomposed for longer than `older_than`
    /// ([`COMPOSE_LEFT_AFTER`] in `crm serve`'s upkeep: the process that queued them
    /// stopped before composing), from their records as they are now; a record deleted
    /// meanwhile took its pending rows with it. Returns how many were composed.
    pub async fn compose_left(
        &self,
        store: &Store,
        today: NaiveDate,
        older_than: Duration,
        limit: i64,
    ) -> Result<u64, ApiError> {
        let mut composed = 0;
        for Uncomposed { to, resource_id } in store.uncomposed(older_than, limit).await? {
            let done = match to.template {
                Template::Estimate => {
                    self.compose_left_bill::<EstimateKind>(store, &to, resource_id, today)
                        .await
                }
                Template::Invoice => {
                    self.compose_left_bill::<InvoiceKind>(store, &to, resource_id, today)
                        .await
                }
                Template::CreditNote => {
                    let found = match CreditNoteId::new(resource_id) {
                        Some(id) => store.credit_note_on(today, id).await,
                        None => Err(crm_store_pg::StoreError::NotFound(
                            crm_core::conflict::Resource::CreditNote,
                        )),
                    };
                    match found {
                        Ok(note) => {
                            let doc = self.credit_note_document(store, &note).await?;
                            let source = crm_einvoice::Source::credit_note(&note);
                            self.compose_document(store, &to, doc, Some(source)).await
                        }
                        Err(crm_store_pg::StoreError::NotFound(_)) => Ok(()),
                        Err(e) => Err(e.into()),
                    }
                }
                Template::EstimateDecision => {
                    match read::<EstimateKind>(store, resource_id, today).await? {
                        None => Ok(()),
                        Some(estimate) => {
                            let notice = Notice {
                                estimate: Box::new(estimate),
                                compose: to,
                            };
                            self.compose_notice(store, &notice).await
                        }
                    }
                }
            };
            done?;
            composed += 1;
        }
        Ok(composed)
    }

    async fn compose_left_bill<K: Shown>(
        &self,
        store: &Store,
        to: &ToCompose,
        id: i64,
        today: NaiveDate,
    ) -> Result<(), ApiError> {
        match read::<K>(store, id, today).await? {
            None => Ok(()),
            Some(record) => self.compose_bill::<K>(store, to, &record).await,
        }
    }

    /// The PDF cache's figures now (`/metrics`).
    pub fn pdf_cache_status(&self) -> PdfCacheStatus {
        self.pdfs.status()
    }
}

/// Bill `id` of kind `K` as shown on `today`; `None` when it is gone (or the id is none).
async fn read<K: StoredKind>(
    store: &Store,
    id: i64,
    today: NaiveDate,
) -> Result<Option<K::Record>, ApiError> {
    let Some(id) = K::id(id) else {
        return Ok(None);
    };
    match store.bills::<K>().get_on(today, id).await {
        Ok(record) => Ok(Some(record)),
        Err(crm_store_pg::StoreError::NotFound(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The company's name and the parties of a document for `client`: those it was issued with
/// (`issued`), else the company's settings and the client's record, read now (a client
/// deleted meanwhile: its name on the record alone).
async fn parties(
    store: &Store,
    client: ClientId,
    issued: Option<&IssuedParties>,
) -> Result<(String, Parties), ApiError> {
    if let Some(issued) = issued {
        let parties = Parties {
            seller: Some(Party::of_seller(&issued.seller)),
            buyer: Some(Party::of_buyer(&issued.buyer)),
            payment: Some(PaymentDetails::of_seller(&issued.seller)),
        };
        return Ok((issued.seller.trading_name.clone(), parties));
    }
    let company = store.company().await?;
    let buyer = match store.client(client).await {
        Ok(client) => Some(Party::of_client(&client)),
        Err(crm_store_pg::StoreError::NotFound(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let parties = Parties {
        seller: Some(Party::of_company(&company)),
        buyer,
        payment: Some(PaymentDetails::of_company(&company)),
    };
    Ok((company.trading_name, parties))
}
