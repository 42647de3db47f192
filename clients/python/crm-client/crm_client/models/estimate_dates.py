from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="EstimateDates")


@_attrs_define
class EstimateDates:
    """
    Attributes:
        date (datetime.date): A calendar date, `YYYY-MM-DD`.
        expiry_date (datetime.date | None):
        created (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
        revised (datetime.datetime | None): When its offer (lines, taxes, totals, dates, discount, adjustment, notes,
            terms) last changed after it was published: its page then says "Revised on …" and a decline of the earlier offer
            is withdrawn. `null` when it never did.
    """

    date: datetime.date
    expiry_date: datetime.date | None
    created: datetime.datetime
    revised: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        date = self.date.isoformat()

        expiry_date: None | str
        if isinstance(self.expiry_date, datetime.date):
            expiry_date = self.expiry_date.isoformat()
        else:
            expiry_date = self.expiry_date

        created = self.created.isoformat()

        revised: None | str
        if isinstance(self.revised, datetime.datetime):
            revised = self.revised.isoformat()
        else:
            revised = self.revised

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "date": date,
                "expiry_date": expiry_date,
                "created": created,
                "revised": revised,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        date = datetime.date.fromisoformat(d.pop("date"))

        def _parse_expiry_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expiry_date_type_0 = datetime.date.fromisoformat(data)

                return expiry_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        expiry_date = _parse_expiry_date(d.pop("expiry_date"))

        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_revised(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revised_type_0 = datetime.datetime.fromisoformat(data)

                return revised_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revised = _parse_revised(d.pop("revised"))

        estimate_dates = cls(
            date=date,
            expiry_date=expiry_date,
            created=created,
            revised=revised,
        )

        return estimate_dates
