from enum import StrEnum


class ListEmailsStatusType0(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)
