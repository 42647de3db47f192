from enum import StrEnum


class ListPaymentsSortType0(StrEnum):
    PAYMENT_AMOUNT = "payment_amount"
    PAYMENT_CREATED = "payment_created"
    PAYMENT_DATE = "payment_date"

    def __str__(self) -> str:
        return str(self.value)
