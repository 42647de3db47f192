from enum import StrEnum


class ContractSigningClientStatus(StrEnum):
    SIGNED = "signed"
    UNSIGNED = "unsigned"

    def __str__(self) -> str:
        return str(self.value)
