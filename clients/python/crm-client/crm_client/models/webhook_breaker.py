from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_breaker_state import WebhookBreakerState

T = TypeVar("T", bound="WebhookBreaker")


@_attrs_define
class WebhookBreaker:
    """The endpoint's circuit breaker: it opens when 3 attempts in a row got no answer within the 15 s limit, and the
    endpoint then gets one attempt at a time until one is delivered (a 2xx), which closes it. Other failures (an answer
    that is not a 2xx, a refused connection) came in time and neither open nor close it.

        Attributes:
            state (WebhookBreakerState):
            timeouts (int): Attempts in a row that got no answer in time, since the last delivered one.
            opened (datetime.datetime | None): When the breaker opened; null while it is closed.
    """

    state: WebhookBreakerState
    timeouts: int
    opened: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        timeouts = self.timeouts

        opened: None | str
        if isinstance(self.opened, datetime.datetime):
            opened = self.opened.isoformat()
        else:
            opened = self.opened

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
                "timeouts": timeouts,
                "opened": opened,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        state = WebhookBreakerState(d.pop("state"))

        timeouts = d.pop("timeouts")

        def _parse_opened(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                opened_type_0 = datetime.datetime.fromisoformat(data)

                return opened_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        opened = _parse_opened(d.pop("opened"))

        webhook_breaker = cls(
            state=state,
            timeouts=timeouts,
            opened=opened,
        )

        return webhook_breaker
