from enum import StrEnum


class UpdateRecurringInvoiceJsonBodyFrequencyType0(StrEnum):
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"
    WEEKLY = "weekly"
    YEARLY = "yearly"

    def __str__(self) -> str:
        return str(self.value)
