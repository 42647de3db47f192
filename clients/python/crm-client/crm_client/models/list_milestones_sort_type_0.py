from enum import StrEnum


class ListMilestonesSortType0(StrEnum):
    MILESTONE_CREATED = "milestone_created"
    MILESTONE_POSITION = "milestone_position"
    MILESTONE_TITLE = "milestone_title"

    def __str__(self) -> str:
        return str(self.value)
