from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_delivery import WebhookDelivery


T = TypeVar("T", bound="TestWebhookResponse201")


@_attrs_define
class TestWebhookResponse201:
    """
    Attributes:
        data (WebhookDelivery): One event's delivery to one endpoint.
        message (Literal['Test event queued successfully.']):
    """

    data: WebhookDelivery
    message: Literal["Test event queued successfully."]

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

        message = cast(Literal["Test event queued successfully."], d.pop("message"))
        if message != "Test event queued successfully.":
            raise ValueError(f"message must match const 'Test event queued successfully.', got '{message}'")

        test_webhook_response_201 = cls(
            data=data,
            message=message,
        )

        return test_webhook_response_201
