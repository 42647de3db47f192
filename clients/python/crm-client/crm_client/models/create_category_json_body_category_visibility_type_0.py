from enum import StrEnum


class CreateCategoryJsonBodyCategoryVisibilityType0(StrEnum):
    CLIENT = "client"
    EVERYONE = "everyone"
    TEAM = "team"

    def __str__(self) -> str:
        return str(self.value)
