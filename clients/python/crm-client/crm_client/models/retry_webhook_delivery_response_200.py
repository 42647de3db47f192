from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_delivery import WebhookDelivery


T = TypeVar("T", bound="RetryWebhookDeliveryResponse200")


@_attrs_define
class RetryWebhookDeliveryResponse200:
    """
    Attributes:
        data (WebhookDelivery): One event's delivery to one endpoint.
        message (Literal['Delivery queued successfully.']):
    """

    data: WebhookDelivery
    message: Literal["Delivery queued successfully."]

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_delivery import WebhookDelivery  # noqa: PLC0415

        d = dict(src_dict)
        data = WebhookDelivery.from_dict(d.pop("data"))

        message = cast(Literal["Delivery queued successfully."], d.pop("message"))
        if message != "Delivery queued successfully.":
            raise ValueError(f"message must match const 'Delivery queued successfully.', got '{message}'")

        retry_webhook_delivery_response_200 = cls(
            data=data,
            message=message,
        )

        return retry_webhook_delivery_response_200
