from enum import StrEnum


class ContractStatus(StrEnum):
    ACTIVE = "active"
    AWAITING_SIGNATURES = "awaiting_signatures"
    DRAFT = "draft"
    EXPIRED = "expired"

    def __str__(self) -> str:
        return str(self.value)
