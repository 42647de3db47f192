from enum import StrEnum


class ListProjectsSortType0(StrEnum):
    DUE_DATE = "due_date"
    PROJECT_CREATED = "project_created"
    START_DATE = "start_date"
    TITLE = "title"

    def __str__(self) -> str:
        return str(self.value)
