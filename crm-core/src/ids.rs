//! Record identifiers: positive 64-bit integers, one type per kind of record so that a
//! client id can never be passed where a project id is expected.

macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ::serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(i64);

        impl $name {
            /// The id, when `raw` is positive (ids start at 1).
            pub fn new(raw: i64) -> Option<Self> {
                (raw > 0).then_some(Self(raw))
            }

            /// Parses a path segment: decimal digits of a positive 64-bit integer.
            /// Anything else (`abc`, `-1`, `0`, `99999999999999999999`) is `None`.
            pub fn from_path(segment: &str) -> Option<Self> {
                if segment.is_empty() || !segment.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                segment.parse::<i64>().ok().and_then(Self::new)
            }

            /// The raw value, as stored.
            pub fn get(self) -> i64 {
                self.0
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            /// Read from a JSON integer; one that is not positive is refused, as
            /// [`new`](Self::new) refuses it.
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let raw = <i64 as ::serde::Deserialize>::deserialize(deserializer)?;
                Self::new(raw).ok_or_else(|| {
                    <D::Error as ::serde::de::Error>::custom(format!("{raw} is no id (ids start at 1)"))
                })
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

id_type!(
    /// A category.
    CategoryId
);
id_type!(
    /// A contract.
    ContractId
);
id_type!(
    /// An estimate (also the backing estimate of a contract).
    EstimateId
);
id_type!(
    /// An invoice.
    InvoiceId
);
id_type!(
    /// A credit note (API.md §18).
    CreditNoteId
);
id_type!(
    /// A recurring invoice: a schedule and its template (API.md §20).
    RecurringInvoiceId
);
id_type!(
    /// A milestone.
    MilestoneId
);
id_type!(
    /// A note.
    NoteId
);
id_type!(
    /// A webhook endpoint.
    WebhookId
);
id_type!(
    /// One delivery of an event to one webhook endpoint.
    WebhookDeliveryId
);
id_type!(
    /// A payment received against an invoice.
    PaymentId
);
id_type!(
    /// An outbox email (an `email_queue` row).
    EmailId
);
id_type!(
    /// A user (team member, admin or client user).
    UserId
);
id_type!(
    /// A client.
    ClientId
);
id_type!(
    /// A project.
    ProjectId
);
id_type!(
    /// A lead.
    LeadId
);
id_type!(
    /// A task.
    TaskId
);
id_type!(
    /// A tax rate.
    TaxRateId
);
id_type!(
    /// A contract template.
    ContractTemplateId
);
id_type!(
    /// A line item of an estimate or invoice.
    LineItemId
);
id_type!(
    /// An API key.
    ApiKeyId
);

/// A linked record shown with its name: `{"id": 12, "name": "Acme Inc"}`.
#[derive(Debug, Clone, PartialEq, Eq, ::serde::Serialize, ::serde::Deserialize)]
pub struct Named<I> {
    /// The linked record's id.
    pub id: I,
    /// Its display name.
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_from_json_integers_that_are_positive() {
        let id: NoteId = serde_json::from_str("42").unwrap();
        assert_eq!(id.get(), 42);
        for refused in ["0", "-3", "\"42\"", "1.5"] {
            assert!(
                serde_json::from_str::<NoteId>(refused).is_err(),
                "{refused}"
            );
        }
        let named: Named<ClientId> = serde_json::from_str(r#"{"id": 7, "name": "Acme"}"#).unwrap();
        assert_eq!((named.id.get(), named.name.as_str()), (7, "Acme"));
    }

    #[test]
    fn path_ids_are_positive_decimal_integers_only() {
        assert_eq!(NoteId::from_path("42").map(NoteId::get), Some(42));
        for bad in [
            "",
            "0",
            "-1",
            "+1",
            "1.0",
            "abc",
            "99999999999999999999",
            " 1",
        ] {
            assert_eq!(NoteId::from_path(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn ids_serialise_as_plain_numbers() {
        assert_eq!(
            serde_json::to_string(&ClientId::new(12).unwrap()).unwrap(),
            "12"
        );
        assert_eq!(ClientId::new(0), None);
    }
}
