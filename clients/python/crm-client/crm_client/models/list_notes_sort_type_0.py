from enum import StrEnum


class ListNotesSortType0(StrEnum):
    NOTE_CREATED = "note_created"
    NOTE_TITLE = "note_title"
    NOTE_UPDATED = "note_updated"

    def __str__(self) -> str:
        return str(self.value)
