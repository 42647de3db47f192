from enum import StrEnum


class UpdateNoteFilesBodyNoteVisibilityType0(StrEnum):
    PRIVATE = "private"
    PUBLIC = "public"

    def __str__(self) -> str:
        return str(self.value)
