from enum import StrEnum


class UpdateRecurringInvoiceFilesBodyCatchUpType0(StrEnum):
    ALL = "all"
    LATEST = "latest"

    def __str__(self) -> str:
        return str(self.value)
