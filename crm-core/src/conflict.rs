//! Business conflicts (requests that are well-formed but not allowed by the records'
//! current state; the HTTP layer answers each with 409 and the message below), and the
//! resources whose absence is reported as `"<Resource> not found."`.

/// A kind of record the API serves by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resource {
    /// Categories.
    Category,
    /// Contracts.
    Contract,
    /// Estimates.
    Estimate,
    /// Invoices.
    Invoice,
    /// Milestones.
    Milestone,
    /// Notes.
    Note,
    /// Outbox emails.
    Email,
    /// Payments.
    Payment,
    /// Webhook endpoints.
    Webhook,
    /// Deliveries of events to a webhook endpoint.
    WebhookDelivery,
    /// Clients.
    Client,
    /// Tax rates.
    TaxRate,
    /// Projects.
    Project,
    /// Credit notes.
    CreditNote,
    /// Recurring invoices.
    RecurringInvoice,
}

impl Resource {
    /// `category`, `estimate`, … as a message names the record.
    pub fn noun(self) -> &'static str {
        match self {
            Resource::Category => "category",
            Resource::Contract => "contract",
            Resource::Estimate => "estimate",
            Resource::Invoice => "invoice",
            Resource::Milestone => "milestone",
            Resource::Note => "note",
            Resource::Email => "email",
            Resource::Payment => "payment",
            Resource::Webhook => "webhook",
            Resource::WebhookDelivery => "delivery",
            Resource::Client => "client",
            Resource::TaxRate => "tax rate",
            Resource::Project => "project",
            Resource::CreditNote => "credit note",
            Resource::RecurringInvoice => "recurring invoice",
        }
    }

    /// "Category not found." and so on.
    pub fn not_found_message(self) -> &'static str {
        match self {
            Resource::Category => "Category not found.",
            Resource::Contract => "Contract not found.",
            Resource::Estimate => "Estimate not found.",
            Resource::Invoice => "Invoice not found.",
            Resource::Milestone => "Milestone not found.",
            Resource::Note => "Note not found.",
            Resource::Email => "Email not found.",
            Resource::Payment => "Payment not found.",
            Resource::Webhook => "Webhook not found.",
            Resource::WebhookDelivery => "Delivery not found.",
            Resource::Client => "Client not found.",
            Resource::TaxRate => "Tax rate not found.",
            Resource::Project => "Project not found.",
            Resource::CreditNote => "Credit note not found.",
            Resource::RecurringInvoice => "Recurring invoice not found.",
        }
    }
}

/// A request refused because of the records' current state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// Deleting a system-default category.
    #[error("You cannot delete a system default category.")]
    SystemDefaultCategory,
    /// Deleting a category that still has records.
    #[error("This category is not empty. First move its items to another category.")]
    CategoryNotEmpty,
    /// Publishing an estimate that is not a stored draft.
    #[error("Estimate has already been published.")]
    EstimateAlreadyPublished,
    /// Emailing a draft estimate.
    #[error("Estimate is still in draft status.")]
    EstimateStillDraft,
    /// Converting an estimate a second time.
    #[error("Estimate has already been converted to an invoice.")]
    EstimateAlreadyConverted,
    /// Publishing an invoice that is not a stored Draft.
    #[error("Invoice has already been published.")]
    InvoiceAlreadyPublished,
    /// Emailing a Draft invoice.
    #[error("Invoice is still in draft status.")]
    InvoiceStillDraft,
    /// Emailing a bill whose client has no contact address: nothing would be sent.
    #[error("The client has no contact email.")]
    NoContactEmail,
    /// Deleting an invoice that has payments, or setting it back to Draft or Cancelled
    /// (delete its payments first).
    #[error("Invoice has payments.")]
    InvoiceHasPayments,
    /// Setting an open invoice's status (Due, Part Paid, Paid) by hand to one its
    /// payments do not give: that status follows what was paid.
    #[error("Invoice status follows its payments.")]
    InvoiceStatusFollowsPayments,
    /// Creating or renaming a milestone to a title its project already has.
    #[error("A milestone with this title already exists in this project.")]
    DuplicateMilestoneTitle,
    /// Deleting a project's `uncategorised` milestone.
    #[error("You cannot delete the default milestone.")]
    DefaultMilestone,
    /// Deleting a client that has estimates, invoices, contracts, projects or tickets
    /// (suspend it instead).
    #[error("Client has records.")]
    ClientHasRecords,
    /// Changing the rate or category of a tax rate a document uses, or deleting it
    /// (disable it and create another).
    #[error("Tax rate is in use.")]
    TaxRateInUse,
    /// Changing the rate or category of the system "No Tax" rate, or deleting it.
    #[error("The system tax rate cannot be changed or deleted.")]
    SystemTaxRate,
    /// Deleting a project that has estimates or invoices.
    #[error("Project has estimates or invoices.")]
    ProjectHasBills,
    /// Changing what an issued invoice (one with a number) states: its lines, taxes,
    /// discount, adjustment, client or dates, or setting it back to Draft (API.md §18).
    #[error("An issued invoice cannot be changed. Issue a credit note instead.")]
    IssuedInvoiceChanged,
    /// Deleting an issued invoice.
    #[error("An issued invoice cannot be deleted. Issue a credit note instead.")]
    IssuedInvoiceDeleted,
    /// Setting an issued invoice to Cancelled by hand: a credit note for what is not yet
    /// credited cancels it.
    #[error("An issued invoice cannot be cancelled by hand. Issue a credit note instead.")]
    IssuedInvoiceCancelled,
    /// Issuing a credit note for an invoice that was never issued (a draft, or one from
    /// before numbers): it is changed, not credited.
    #[error("Only an issued invoice can be credited; change a draft instead.")]
    InvoiceNotIssued,
    /// Deleting a payment of an invoice a credit note refunded: the refund stands on it.
    #[error("A payment of an invoice with a refund cannot be deleted.")]
    RefundStandsOnPayments,
    /// Changing, deleting or setting the status of an estimate the client accepted.
    #[error("An accepted estimate cannot be changed.")]
    AcceptedEstimateChanged,
    /// Issuing a number that a document of the same kind already has (two number formats
    /// whose numbers meet): change the format.
    #[error("The number format gives a number that is already used; change the number format.")]
    NumberTaken,
}

impl Conflict {
    /// The message shown to the client.
    pub fn message(self) -> String {
        self.to_string()
    }
}
