from enum import StrEnum


class ListWebhooksOrderType0(StrEnum):
    ASC = "asc"
    DESC = "desc"

    def __str__(self) -> str:
        return str(self.value)
