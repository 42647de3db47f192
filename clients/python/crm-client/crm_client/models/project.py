from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.project_status import ProjectStatus

if TYPE_CHECKING:
    from ..models.record_dates import RecordDates


T = TypeVar("T", bound="Project")


@_attrs_define
class Project:
    """A project (API.md §17).

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        title (str):
        client_id (int): A record id: a positive 64-bit integer.
        category_id (int): A record id: a positive 64-bit integer.
        status (ProjectStatus):
        start_date (datetime.date | None):
        due_date (datetime.date | None):
        creator_id (int | None):
        dates (RecordDates): Creation and last update times.
    """

    id: int
    title: str
    client_id: int
    category_id: int
    status: ProjectStatus
    start_date: datetime.date | None
    due_date: datetime.date | None
    creator_id: int | None
    dates: RecordDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        client_id = self.client_id

        category_id = self.category_id

        status = self.status.value

        start_date: None | str
        if isinstance(self.start_date, datetime.date):
            start_date = self.start_date.isoformat()
        else:
            start_date = self.start_date

        due_date: None | str
        if isinstance(self.due_date, datetime.date):
            due_date = self.due_date.isoformat()
        else:
            due_date = self.due_date

        creator_id: int | None
        creator_id = self.creator_id

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "client_id": client_id,
                "category_id": category_id,
                "status": status,
                "start_date": start_date,
                "due_date": due_date,
                "creator_id": creator_id,
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

        client_id = d.pop("client_id")

        category_id = d.pop("category_id")

        status = ProjectStatus(d.pop("status"))

        def _parse_start_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_date_type_0 = datetime.date.fromisoformat(data)

                return start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        start_date = _parse_start_date(d.pop("start_date"))

        def _parse_due_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_type_0 = datetime.date.fromisoformat(data)

                return due_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        due_date = _parse_due_date(d.pop("due_date"))

        def _parse_creator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        creator_id = _parse_creator_id(d.pop("creator_id"))

        dates = RecordDates.from_dict(d.pop("dates"))

        project = cls(
            id=id,
            title=title,
            client_id=client_id,
            category_id=category_id,
            status=status,
            start_date=start_date,
            due_date=due_date,
            creator_id=creator_id,
            dates=dates,
        )

        return project
