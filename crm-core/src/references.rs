//! The kinds of database references a command can carry: what a referenced id must be
//! ([`RefKind`]), where a claimed category name must be free ([`NameScope`]), and the
//! [`CategoryType`] both are qualified by.
//!
//! These kinds sit in a module of their own, below [`validation`](crate::validation),
//! [`input`](crate::input) and [`category`](crate::category), so that the references
//! collector can name a category type without depending on the category area (which
//! itself reads input and reports validation errors). `crm_core::validation` re-exports
//! [`RefKind`] and [`NameScope`], and `crm_core::category` re-exports [`CategoryType`].

use crate::choice_enum;

choice_enum!(
    /// The kind of record a category groups.
    pub enum CategoryType {
        /// Projects.
        Project = "project",
        /// Clients.
        Client = "client",
        /// Contracts.
        Contract = "contract",
        /// Estimates.
        Estimate = "estimate",
        /// Invoices.
        Invoice = "invoice",
        /// Leads.
        Lead = "lead",
        /// Tickets.
        Ticket = "ticket",
        /// Catalogue items.
        Item = "item",
        /// Expenses.
        Expense = "expense",
        /// Proposals (no records here).
        Proposal = "proposal",
        /// Knowledge-base articles (no records here).
        Knowledgebase = "knowledgebase",
        /// Subscriptions (no records here).
        Subscription = "subscription",
    }
);

impl CategoryType {
    /// Whether records of this type exist in this system (and so can fill a category).
    pub fn has_records(self) -> bool {
        match self {
            CategoryType::Project
            | CategoryType::Client
            | CategoryType::Contract
            | CategoryType::Estimate
            | CategoryType::Invoice
            | CategoryType::Lead
            | CategoryType::Ticket
            | CategoryType::Item
            | CategoryType::Expense => true,
            CategoryType::Proposal | CategoryType::Knowledgebase | CategoryType::Subscription => {
                false
            }
        }
    }
}

/// What a referenced id must be in the database for a command to be valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// Any client.
    Client,
    /// Any project.
    Project,
    /// Any lead.
    Lead,
    /// Any task.
    Task,
    /// Any user (team member, admin or client user).
    User,
    /// A team member (users of kind `team`).
    TeamUser,
    /// A contract template.
    ContractTemplate,
    /// An enabled tax rate.
    EnabledTaxRate,
    /// A milestone.
    Milestone,
    /// A category of the given type.
    Category(CategoryType),
}

/// Where a category name must be free (case-insensitively): among the categories of a
/// type, or, for a rename, among the other categories of the renamed one's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameScope {
    /// The categories of this type.
    Type(CategoryType),
    /// The categories of the same type as this category id, other than itself.
    TypeOf(i64),
}
