from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_events_item import WebhookEventsItem

if TYPE_CHECKING:
    from ..models.webhook_breaker import WebhookBreaker
    from ..models.webhook_dates import WebhookDates


T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """A webhook endpoint (API.md §13). Its secret is shown only when it is created and when it is rotated.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        url (str):
        description (None | str):
        events (list[WebhookEventsItem]):
        enabled (bool):
        dates (WebhookDates):
        breaker (WebhookBreaker): The endpoint's circuit breaker: it opens when 3 attempts in a row got no answer within
            the 15 s limit, and the endpoint then gets one attempt at a time until one is delivered (a 2xx), which closes
            it. Other failures (an answer that is not a 2xx, a refused connection) came in time and neither open nor close
            it.
        disabled_reason (None | str):
    """

    id: int
    url: str
    description: None | str
    events: list[WebhookEventsItem]
    enabled: bool
    dates: WebhookDates
    breaker: WebhookBreaker
    disabled_reason: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        description: None | str
        description = self.description

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        enabled = self.enabled

        dates = self.dates.to_dict()

        breaker = self.breaker.to_dict()

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "description": description,
                "events": events,
                "enabled": enabled,
                "dates": dates,
                "breaker": breaker,
                "disabled_reason": disabled_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_breaker import WebhookBreaker  # noqa: PLC0415
        from ..models.webhook_dates import WebhookDates  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = WebhookEventsItem(events_item_data)

            events.append(events_item)

        enabled = d.pop("enabled")

        dates = WebhookDates.from_dict(d.pop("dates"))

        breaker = WebhookBreaker.from_dict(d.pop("breaker"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        webhook = cls(
            id=id,
            url=url,
            description=description,
            events=events,
            enabled=enabled,
            dates=dates,
            breaker=breaker,
            disabled_reason=disabled_reason,
        )

        return webhook
