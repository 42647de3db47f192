from enum import StrEnum


class InvoiceStatusColor(StrEnum):
    DANGER = "danger"
    DEFAULT = "default"
    INFO = "info"
    SUCCESS = "success"
    WARNING = "warning"

    def __str__(self) -> str:
        return str(self.value)
