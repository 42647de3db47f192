from enum import StrEnum


class MilestoneType(StrEnum):
    CATEGORISED = "categorised"
    UNCATEGORISED = "uncategorised"

    def __str__(self) -> str:
        return str(self.value)
