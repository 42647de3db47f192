from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ContractDates")


@_attrs_define
class ContractDates:
    """
    Attributes:
        start (datetime.date): A calendar date, `YYYY-MM-DD`.
        end (datetime.date | None):
        created (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
        published (datetime.datetime | None):
    """

    start: datetime.date
    end: datetime.date | None
    created: datetime.datetime
    published: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        start = self.start.isoformat()

        end: None | str
        if isinstance(self.end, datetime.date):
            end = self.end.isoformat()
        else:
            end = self.end

        created = self.created.isoformat()

        published: None | str
        if isinstance(self.published, datetime.datetime):
            published = self.published.isoformat()
        else:
            published = self.published

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "start": start,
                "end": end,
                "created": created,
                "published": published,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        start = datetime.date.fromisoformat(d.pop("start"))

        def _parse_end(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_type_0 = datetime.date.fromisoformat(data)

                return end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        end = _parse_end(d.pop("end"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_published(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                published_type_0 = datetime.datetime.fromisoformat(data)

                return published_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        published = _parse_published(d.pop("published"))

        contract_dates = cls(
            start=start,
            end=end,
            created=created,
            published=published,
        )

        return contract_dates
