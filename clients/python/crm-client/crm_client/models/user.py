from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.record_dates import RecordDates


T = TypeVar("T", bound="User")


@_attrs_define
class User:
    """A user (API.md §17).

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        first_name (str):
        last_name (str):
        email (str):
        dates (RecordDates): Creation and last update times.
    """

    id: int
    first_name: str
    last_name: str
    email: str
    dates: RecordDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        first_name = self.first_name

        last_name = self.last_name

        email = self.email

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "first_name": first_name,
                "last_name": last_name,
                "email": email,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.record_dates import RecordDates  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        first_name = d.pop("first_name")

        last_name = d.pop("last_name")

        email = d.pop("email")

        dates = RecordDates.from_dict(d.pop("dates"))

        user = cls(
            id=id,
            first_name=first_name,
            last_name=last_name,
            email=email,
            dates=dates,
        )

        return user
