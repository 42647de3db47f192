from enum import StrEnum


class WebhookWithSecretBreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
