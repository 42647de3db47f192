from enum import StrEnum


class ListEmailsSortType0(StrEnum):
    EMAIL_CREATED = "email_created"
    EMAIL_SENT = "email_sent"

    def __str__(self) -> str:
        return str(self.value)
