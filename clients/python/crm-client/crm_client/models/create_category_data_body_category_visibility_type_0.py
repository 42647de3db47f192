from enum import StrEnum


class CreateCategoryDataBodyCategoryVisibilityType0(StrEnum):
    CLIENT = "client"
    EVERYONE = "everyone"
    TEAM = "team"

    def __str__(self) -> str:
        return str(self.value)
