from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreditNoteDates")


@_attrs_define
class CreditNoteDates:
    """
    Attributes:
        date (datetime.date): A calendar date, `YYYY-MM-DD`.
        created (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
    """

    date: datetime.date
    created: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        date = self.date.isoformat()

        created = self.created.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "date": date,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        date = datetime.date.fromisoformat(d.pop("date"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        credit_note_dates = cls(
            date=date,
            created=created,
        )

        return credit_note_dates
