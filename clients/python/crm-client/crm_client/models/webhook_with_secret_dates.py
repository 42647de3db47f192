from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookWithSecretDates")


@_attrs_define
class WebhookWithSecretDates:
    """
    Attributes:
        created (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
        disabled (datetime.datetime | None): When it was disabled (a 410, five days of failures, or `enabled=false`).
    """

    created: datetime.datetime
    disabled: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        disabled: None | str
        if isinstance(self.disabled, datetime.datetime):
            disabled = self.disabled.isoformat()
        else:
            disabled = self.disabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created": created,
                "disabled": disabled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_disabled(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_type_0 = datetime.datetime.fromisoformat(data)

                return disabled_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled = _parse_disabled(d.pop("disabled"))

        webhook_with_secret_dates = cls(
            created=created,
            disabled=disabled,
        )

        return webhook_with_secret_dates
