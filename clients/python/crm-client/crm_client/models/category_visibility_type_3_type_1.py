from enum import StrEnum


class CategoryVisibilityType3Type1(StrEnum):
    CLIENT = "client"
    EVERYONE = "everyone"
    TEAM = "team"

    def __str__(self) -> str:
        return str(self.value)
