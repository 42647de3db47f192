//! E-invoices as files (API.md §19): one place makes them for the API's export, the
//! client's page and the emails, so that the three carry the same bytes.
//!
//! The model and the XML are crm-einvoice's ([`crm_einvoice::build()`],
//! [`crm_einvoice::write`]); this module reads the tax rates the document names, and
//! renders the Factur-X PDF from the document's page ([`Documents::facturx`]).

use crm_einvoice::{Format, Missing, Rates, Source};
use crm_render::Document;
use crm_store_pg::Store;
use crm_store_pg::messages::Attached;

use super::Documents;
use crate::error::ApiError;

/// The EN 16931 model of `source` in `format`, with the tax rates it names read from
/// `store`, or every business term and figure that keeps it from being written.
async fn built(
    store: &Store,
    source: Source<'_>,
    format: Format,
) -> Result<Result<crm_einvoice::model::Document, Vec<Missing>>, ApiError> {
    let rates = store.tax_rates_named(&source.tax_rate_ids()).await?;
    Ok(crm_einvoice::build(source, &Rates::new(&rates), format))
}

impl Documents {
    /// What keeps `source` from being written in `format`: every missing business term and
    /// every figure EN 16931 cannot state exactly (empty: ready).
    pub async fn einvoice_missing(
        &self,
        store: &Store,
        source: Source<'_>,
        format: Format,
    ) -> Result<Vec<Missing>, ApiError> {
        Ok(built(store, source, format)
            .await?
            .err()
            .unwrap_or_default())
    }

    /// The e-invoice of `source` in `format`, named by its number and format; for
    /// Factur-X, `page` (the document as its PDF shows it) is rendered as a PDF/A-3 that
    /// carries the CII XML. A document that is not ready is [`ApiError::NotReady`] with
    /// what [`Documents::einvoice_missing`] names.
    pub async fn einvoice(
        &self,
        store: &Store,
        source: Source<'_>,
        format: Format,
        page: impl Future<Output = Result<Document, ApiError>>,
    ) -> Result<Attached, ApiError> {
        let document = built(store, source, format)
            .await?
            .map_err(ApiError::NotReady)?;
        let mut data = crm_einvoice::write(&document, format)
            .map_err(|e| ApiError::Internal(format!("cannot write an e-invoice: {e}")))?;
        if format == Format::Facturx {
            let page = page.await?;
            data = Box::pin(self.facturx(page, data, document.issue_date)).await?;
        }
        Ok(Attached {
            name: format.file_name(&document.number),
            media_type: format.media_type().to_owned(),
            data,
        })
    }

    /// The e-invoice an email of `source` carries (`--mail-attach-einvoice`): `None` when
    /// the service attaches none, or when the document is not ready for the format, which
    /// the log then names (the email still leaves, with its link and PDF; readiness tells
    /// what to fill in).
    pub(super) async fn mail_einvoice(
        &self,
        store: &Store,
        source: Option<Source<'_>>,
        doc: &Document,
    ) -> Result<Option<Attached>, ApiError> {
        let (Some(format), Some(source)) = (self.presentation.einvoice, source) else {
            return Ok(None);
        };
        // Cloned only for Factur-X, the one format that renders the page.
        let page = async { Ok(doc.clone()) };
        match self.einvoice(store, source, format, page).await {
            Ok(file) => Ok(Some(file)),
            Err(ApiError::NotReady(missing)) => {
                let terms: Vec<String> = missing
                    .iter()
                    .map(|m| format!("{} {}", m.term, m.field))
                    .collect();
                tracing::warn!(
                    document = %doc.title(),
                    format = format.name(),
                    missing = %terms.join(", "),
                    "the email leaves without its e-invoice: the document is not ready for \
                     the format (GET …/einvoice/readiness names what to fill in)"
                );
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }
}
