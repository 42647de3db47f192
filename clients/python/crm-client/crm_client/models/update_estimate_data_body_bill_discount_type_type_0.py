from enum import StrEnum


class UpdateEstimateDataBodyBillDiscountTypeType0(StrEnum):
    FIXED = "fixed"
    NONE = "none"
    PERCENTAGE = "percentage"

    def __str__(self) -> str:
        return str(self.value)
