from enum import StrEnum


class UpdateInvoiceJsonBodyBillDiscountTypeType0(StrEnum):
    FIXED = "fixed"
    NONE = "none"
    PERCENTAGE = "percentage"

    def __str__(self) -> str:
        return str(self.value)
