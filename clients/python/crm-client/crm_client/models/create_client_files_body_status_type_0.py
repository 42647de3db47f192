from enum import StrEnum


class CreateClientFilesBodyStatusType0(StrEnum):
    ACTIVE = "active"
    SUSPENDED = "suspended"

    def __str__(self) -> str:
        return str(self.value)
