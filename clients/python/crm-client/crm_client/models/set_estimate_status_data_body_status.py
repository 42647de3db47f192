from enum import StrEnum


class SetEstimateStatusDataBodyStatus(StrEnum):
    ACCEPTED = "accepted"
    DECLINED = "declined"
    DRAFT = "draft"
    NEW = "new"
    REVISED = "revised"

    def __str__(self) -> str:
        return str(self.value)
