from enum import StrEnum


class CreateRecurringInvoiceJsonBodyCatchUpType0(StrEnum):
    ALL = "all"
    LATEST = "latest"

    def __str__(self) -> str:
        return str(self.value)
