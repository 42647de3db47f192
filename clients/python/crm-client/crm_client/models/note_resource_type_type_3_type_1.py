from enum import StrEnum


class NoteResourceTypeType3Type1(StrEnum):
    CLIENT = "client"
    LEAD = "lead"
    PROJECT = "project"
    TASK = "task"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
