from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_delivery_status import WebhookDeliveryStatus

if TYPE_CHECKING:
    from ..models.webhook_delivery_dates import WebhookDeliveryDates
    from ..models.webhook_delivery_event import WebhookDeliveryEvent


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """One event's delivery to one endpoint.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        event (WebhookDeliveryEvent):
        status (WebhookDeliveryStatus):
        attempts (int):
        last_status_code (int | None):
        last_error (None | str):
        dates (WebhookDeliveryDates):
    """

    id: int
    event: WebhookDeliveryEvent
    status: WebhookDeliveryStatus
    attempts: int
    last_status_code: int | None
    last_error: None | str
    dates: WebhookDeliveryDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event = self.event.to_dict()

        status = self.status.value

        attempts = self.attempts

        last_status_code: int | None
        last_status_code = self.last_status_code

        last_error: None | str
        last_error = self.last_error

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "event": event,
                "status": status,
                "attempts": attempts,
                "last_status_code": last_status_code,
                "last_error": last_error,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_delivery_dates import WebhookDeliveryDates  # noqa: PLC0415
        from ..models.webhook_delivery_event import WebhookDeliveryEvent  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        event = WebhookDeliveryEvent.from_dict(d.pop("event"))

        status = WebhookDeliveryStatus(d.pop("status"))

        attempts = d.pop("attempts")

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("last_status_code"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        dates = WebhookDeliveryDates.from_dict(d.pop("dates"))

        webhook_delivery = cls(
            id=id,
            event=event,
            status=status,
            attempts=attempts,
            last_status_code=last_status_code,
            last_error=last_error,
            dates=dates,
        )

        return webhook_delivery
