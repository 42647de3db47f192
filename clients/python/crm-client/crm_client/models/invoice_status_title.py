from enum import StrEnum


class InvoiceStatusTitle(StrEnum):
    CANCELLED = "Cancelled"
    DRAFT = "Draft"
    DUE = "Due"
    OVERDUE = "Overdue"
    PAID = "Paid"
    PART_PAID = "Part Paid"

    def __str__(self) -> str:
        return str(self.value)
