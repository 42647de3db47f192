from enum import StrEnum


class CreateRecurringInvoiceDataBodyCatchUpType0(StrEnum):
    ALL = "all"
    LATEST = "latest"

    def __str__(self) -> str:
        return str(self.value)
