from enum import StrEnum


class ContractSigningProviderStatus(StrEnum):
    SIGNED = "signed"
    UNSIGNED = "unsigned"

    def __str__(self) -> str:
        return str(self.value)
