from enum import StrEnum


class UpdateRecurringInvoiceDataBodyDiscountTypeType0(StrEnum):
    FIXED = "fixed"
    NONE = "none"
    PERCENTAGE = "percentage"

    def __str__(self) -> str:
        return str(self.value)
