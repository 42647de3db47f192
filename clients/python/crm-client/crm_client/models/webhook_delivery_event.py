from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.webhook_delivery_event_type import WebhookDeliveryEventType

T = TypeVar("T", bound="WebhookDeliveryEvent")


@_attrs_define
class WebhookDeliveryEvent:
    """
    Attributes:
        id (str): The `webhook-id` header: the same on every attempt.
        type_ (WebhookDeliveryEventType):
    """

    id: str
    type_: WebhookDeliveryEventType

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = WebhookDeliveryEventType(d.pop("type"))

        webhook_delivery_event = cls(
            id=id,
            type_=type_,
        )

        return webhook_delivery_event
