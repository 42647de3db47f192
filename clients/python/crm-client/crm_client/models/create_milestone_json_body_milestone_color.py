from enum import StrEnum


class CreateMilestoneJsonBodyMilestoneColor(StrEnum):
    BROWN = "brown"
    DANGER = "danger"
    DEFAULT = "default"
    INFO = "info"
    LIME = "lime"
    PRIMARY = "primary"
    SUCCESS = "success"
    WARNING = "warning"

    def __str__(self) -> str:
        return str(self.value)
