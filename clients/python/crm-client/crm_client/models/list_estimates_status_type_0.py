from enum import StrEnum


class ListEstimatesStatusType0(StrEnum):
    ACCEPTED = "accepted"
    DECLINED = "declined"
    DRAFT = "draft"
    EXPIRED = "expired"
    NEW = "new"
    REVISED = "revised"

    def __str__(self) -> str:
        return str(self.value)
