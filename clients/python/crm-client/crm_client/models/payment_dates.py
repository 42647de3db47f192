from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PaymentDates")


@_attrs_define
class PaymentDates:
    """
    Attributes:
        created (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
    """

    created: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        payment_dates = cls(
            created=created,
        )

        return payment_dates
