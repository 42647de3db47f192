from enum import StrEnum


class ListInvoicesSortType0(StrEnum):
    BILL_CREATED = "bill_created"
    BILL_DATE = "bill_date"
    BILL_DUE_DATE = "bill_due_date"
    BILL_FINAL_AMOUNT = "bill_final_amount"

    def __str__(self) -> str:
        return str(self.value)
