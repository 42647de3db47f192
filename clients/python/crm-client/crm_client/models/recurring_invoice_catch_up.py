from enum import StrEnum


class RecurringInvoiceCatchUp(StrEnum):
    ALL = "all"
    LATEST = "latest"

    def __str__(self) -> str:
        return str(self.value)
