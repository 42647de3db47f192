from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RecordDates")


@_attrs_define
class RecordDates:
    """Creation and last update times.

    Attributes:
        created (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
        updated (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
    """

    created: datetime.datetime
    updated: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        updated = self.updated.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created": created,
                "updated": updated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        record_dates = cls(
            created=created,
            updated=updated,
        )

        return record_dates
