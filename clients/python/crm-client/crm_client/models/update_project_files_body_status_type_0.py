from enum import StrEnum


class UpdateProjectFilesBodyStatusType0(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    IN_PROGRESS = "in_progress"
    NOT_STARTED = "not_started"
    ON_HOLD = "on_hold"

    def __str__(self) -> str:
        return str(self.value)
