from enum import StrEnum


class ListRecurringInvoiceActivitySortType0(StrEnum):
    ACTIVITY_AT = "activity_at"

    def __str__(self) -> str:
        return str(self.value)
