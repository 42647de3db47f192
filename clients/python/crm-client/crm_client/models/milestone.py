from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.milestone_color import MilestoneColor
from ..models.milestone_type import MilestoneType

if TYPE_CHECKING:
    from ..models.record_dates import RecordDates


T = TypeVar("T", bound="Milestone")


@_attrs_define
class Milestone:
    """A project milestone.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        title (str):
        project_id (int): A record id: a positive 64-bit integer.
        type_ (MilestoneType):
        color (MilestoneColor):
        position (int):
        creator_id (int | None):
        tasks_count (int):
        dates (RecordDates): Creation and last update times.
    """

    id: int
    title: str
    project_id: int
    type_: MilestoneType
    color: MilestoneColor
    position: int
    creator_id: int | None
    tasks_count: int
    dates: RecordDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        project_id = self.project_id

        type_ = self.type_.value

        color = self.color.value

        position = self.position

        creator_id: int | None
        creator_id = self.creator_id

        tasks_count = self.tasks_count

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "project_id": project_id,
                "type": type_,
                "color": color,
                "position": position,
                "creator_id": creator_id,
                "tasks_count": tasks_count,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.record_dates import RecordDates  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        project_id = d.pop("project_id")

        type_ = MilestoneType(d.pop("type"))

        color = MilestoneColor(d.pop("color"))

        position = d.pop("position")

        def _parse_creator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        creator_id = _parse_creator_id(d.pop("creator_id"))

        tasks_count = d.pop("tasks_count")

        dates = RecordDates.from_dict(d.pop("dates"))

        milestone = cls(
            id=id,
            title=title,
            project_id=project_id,
            type_=type_,
            color=color,
            position=position,
            creator_id=creator_id,
            tasks_count=tasks_count,
            dates=dates,
        )

        return milestone
