from enum import StrEnum


class UpdateTaxRateFilesBodyVatCategoryType0(StrEnum):
    AE = "AE"
    E = "E"
    G = "G"
    K = "K"
    L = "L"
    M = "M"
    O = "O"
    S = "S"
    Z = "Z"

    def __str__(self) -> str:
        return str(self.value)
