from enum import StrEnum


class ListContractsSortType0(StrEnum):
    DOC_CREATED = "doc_created"
    DOC_DATE_START = "doc_date_start"
    DOC_STATUS = "doc_status"
    DOC_TITLE = "doc_title"
    DOC_VALUE = "doc_value"

    def __str__(self) -> str:
        return str(self.value)
