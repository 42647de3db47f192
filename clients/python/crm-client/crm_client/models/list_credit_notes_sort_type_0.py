from enum import StrEnum


class ListCreditNotesSortType0(StrEnum):
    CREATED = "created"
    DATE = "date"
    FINAL_AMOUNT = "final_amount"

    def __str__(self) -> str:
        return str(self.value)
