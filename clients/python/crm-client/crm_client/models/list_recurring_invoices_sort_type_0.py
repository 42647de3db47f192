from enum import StrEnum


class ListRecurringInvoicesSortType0(StrEnum):
    NEXT_DATE = "next_date"
    RECURRING_INVOICE_CREATED = "recurring_invoice_created"
    START_DATE = "start_date"

    def __str__(self) -> str:
        return str(self.value)
