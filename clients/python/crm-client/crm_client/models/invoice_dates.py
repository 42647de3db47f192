from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="InvoiceDates")


@_attrs_define
class InvoiceDates:
    """
    Attributes:
        date (datetime.date): A calendar date, `YYYY-MM-DD`.
        due_date (datetime.date | None):
        created (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
        issued (datetime.datetime | None): When it was issued (given its number); `null` while not issued.
    """

    date: datetime.date
    due_date: datetime.date | None
    created: datetime.datetime
    issued: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        date = self.date.isoformat()

        due_date: None | str
        if isinstance(self.due_date, datetime.date):
            due_date = self.due_date.isoformat()
        else:
            due_date = self.due_date

        created = self.created.isoformat()

        issued: None | str
        if isinstance(self.issued, datetime.datetime):
            issued = self.issued.isoformat()
        else:
            issued = self.issued

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "date": date,
                "due_date": due_date,
                "created": created,
                "issued": issued,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        date = datetime.date.fromisoformat(d.pop("date"))

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

        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_issued(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                issued_type_0 = datetime.datetime.fromisoformat(data)

                return issued_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        issued = _parse_issued(d.pop("issued"))

        invoice_dates = cls(
            date=date,
            due_date=due_date,
            created=created,
            issued=issued,
        )

        return invoice_dates
