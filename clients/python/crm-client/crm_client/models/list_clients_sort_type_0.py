from enum import StrEnum


class ListClientsSortType0(StrEnum):
    CLIENT_CREATED = "client_created"
    COMPANY_NAME = "company_name"

    def __str__(self) -> str:
        return str(self.value)
