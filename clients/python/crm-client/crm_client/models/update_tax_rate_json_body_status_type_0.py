from enum import StrEnum


class UpdateTaxRateJsonBodyStatusType0(StrEnum):
    DISABLED = "disabled"
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
