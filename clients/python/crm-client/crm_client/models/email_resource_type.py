from enum import StrEnum


class EmailResourceType(StrEnum):
    CONTRACT = "contract"
    CREDIT_NOTE = "credit_note"
    ESTIMATE = "estimate"
    INVOICE = "invoice"

    def __str__(self) -> str:
        return str(self.value)
