from enum import StrEnum


class CreateNoteJsonBodyNoteVisibilityType0(StrEnum):
    PRIVATE = "private"
    PUBLIC = "public"

    def __str__(self) -> str:
        return str(self.value)
