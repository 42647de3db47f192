from enum import StrEnum


class SetInvoiceStatusDataBodyStatus(StrEnum):
    VALUE_0 = "1"
    VALUE_1 = "2"
    VALUE_2 = "4"
    VALUE_3 = "5"
    VALUE_4 = "20"

    def __str__(self) -> str:
        return str(self.value)
