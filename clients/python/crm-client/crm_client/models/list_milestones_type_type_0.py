from enum import StrEnum


class ListMilestonesTypeType0(StrEnum):
    CATEGORISED = "categorised"
    UNCATEGORISED = "uncategorised"

    def __str__(self) -> str:
        return str(self.value)
