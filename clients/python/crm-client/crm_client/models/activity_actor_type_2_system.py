from enum import StrEnum


class ActivityActorType2System(StrEnum):
    OUTBOX = "outbox"
    SCHEDULER = "scheduler"
    SERVICE = "service"

    def __str__(self) -> str:
        return str(self.value)
