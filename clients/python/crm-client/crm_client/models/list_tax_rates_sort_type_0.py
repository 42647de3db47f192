from enum import StrEnum


class ListTaxRatesSortType0(StrEnum):
    NAME = "name"
    RATE = "rate"
    TAX_RATE_CREATED = "tax_rate_created"

    def __str__(self) -> str:
        return str(self.value)
