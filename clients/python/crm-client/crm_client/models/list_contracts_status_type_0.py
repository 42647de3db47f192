from enum import StrEnum


class ListContractsStatusType0(StrEnum):
    ACTIVE = "active"
    AWAITING_SIGNATURES = "awaiting_signatures"
    DRAFT = "draft"
    EXPIRED = "expired"

    def __str__(self) -> str:
        return str(self.value)
