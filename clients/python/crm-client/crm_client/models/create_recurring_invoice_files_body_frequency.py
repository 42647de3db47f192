from enum import StrEnum


class CreateRecurringInvoiceFilesBodyFrequency(StrEnum):
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"
    WEEKLY = "weekly"
    YEARLY = "yearly"

    def __str__(self) -> str:
        return str(self.value)
