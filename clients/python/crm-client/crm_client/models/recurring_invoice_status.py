from enum import StrEnum


class RecurringInvoiceStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
