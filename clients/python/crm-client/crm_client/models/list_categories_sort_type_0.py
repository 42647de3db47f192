from enum import StrEnum


class ListCategoriesSortType0(StrEnum):
    CATEGORY_CREATED = "category_created"
    CATEGORY_NAME = "category_name"
    CATEGORY_TYPE = "category_type"

    def __str__(self) -> str:
        return str(self.value)
