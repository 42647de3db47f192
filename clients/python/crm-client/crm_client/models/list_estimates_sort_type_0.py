from enum import StrEnum


class ListEstimatesSortType0(StrEnum):
    BILL_CREATED = "bill_created"
    BILL_DATE = "bill_date"
    BILL_EXPIRY_DATE = "bill_expiry_date"
    BILL_FINAL_AMOUNT = "bill_final_amount"

    def __str__(self) -> str:
        return str(self.value)
