from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CompanyDates")


@_attrs_define
class CompanyDates:
    """
    Attributes:
        updated (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
    """

    updated: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        updated = self.updated.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "updated": updated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        updated = datetime.datetime.fromisoformat(d.pop("updated"))

        company_dates = cls(
            updated=updated,
        )

        return company_dates
