from enum import StrEnum


class ListEmailsResourceTypeType0(StrEnum):
    CREDIT_NOTE = "credit_note"
    ESTIMATE = "estimate"
    INVOICE = "invoice"

    def __str__(self) -> str:
        return str(self.value)
