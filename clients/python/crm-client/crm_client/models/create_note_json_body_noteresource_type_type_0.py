from enum import StrEnum


class CreateNoteJsonBodyNoteresourceTypeType0(StrEnum):
    CLIENT = "client"
    LEAD = "lead"
    PROJECT = "project"
    TASK = "task"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
