from enum import StrEnum


class ActivityResourceType(StrEnum):
    CATEGORY = "category"
    CLIENT = "client"
    COMPANY = "company"
    CONTRACT = "contract"
    CREDIT_NOTE = "credit_note"
    EMAIL = "email"
    ESTIMATE = "estimate"
    INVOICE = "invoice"
    MILESTONE = "milestone"
    NOTE = "note"
    PAYMENT = "payment"
    PROJECT = "project"
    RECURRING_INVOICE = "recurring_invoice"
    TAX_RATE = "tax_rate"
    USER = "user"
    WEBHOOK = "webhook"

    def __str__(self) -> str:
        return str(self.value)
