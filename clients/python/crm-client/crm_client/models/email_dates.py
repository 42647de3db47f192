from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="EmailDates")


@_attrs_define
class EmailDates:
    """
    Attributes:
        created (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
        next_attempt (datetime.datetime | None): When a pending email is tried next; null otherwise.
        sent (datetime.datetime | None): When the mail server accepted it.
    """

    created: datetime.datetime
    next_attempt: datetime.datetime | None
    sent: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        next_attempt: None | str
        if isinstance(self.next_attempt, datetime.datetime):
            next_attempt = self.next_attempt.isoformat()
        else:
            next_attempt = self.next_attempt

        sent: None | str
        if isinstance(self.sent, datetime.datetime):
            sent = self.sent.isoformat()
        else:
            sent = self.sent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created": created,
                "next_attempt": next_attempt,
                "sent": sent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_next_attempt(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt = _parse_next_attempt(d.pop("next_attempt"))

        def _parse_sent(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_type_0 = datetime.datetime.fromisoformat(data)

                return sent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        sent = _parse_sent(d.pop("sent"))

        email_dates = cls(
            created=created,
            next_attempt=next_attempt,
            sent=sent,
        )

        return email_dates
