from enum import StrEnum


class ListWebhookDeliveriesSortType0(StrEnum):
    DELIVERY_CREATED = "delivery_created"

    def __str__(self) -> str:
        return str(self.value)
