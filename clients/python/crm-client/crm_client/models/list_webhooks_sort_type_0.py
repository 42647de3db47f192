from enum import StrEnum


class ListWebhooksSortType0(StrEnum):
    WEBHOOK_CREATED = "webhook_created"

    def __str__(self) -> str:
        return str(self.value)
