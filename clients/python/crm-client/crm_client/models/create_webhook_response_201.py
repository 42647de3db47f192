from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_with_secret import WebhookWithSecret


T = TypeVar("T", bound="CreateWebhookResponse201")


@_attrs_define
class CreateWebhookResponse201:
    """
    Attributes:
        data (WebhookWithSecret): A webhook endpoint with its secret: the only answers that show it.
        message (Literal['Webhook created successfully.']):
    """

    data: WebhookWithSecret
    message: Literal["Webhook created successfully."]

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
        from ..models.webhook_with_secret import WebhookWithSecret  # noqa: PLC0415

        d = dict(src_dict)
        data = WebhookWithSecret.from_dict(d.pop("data"))

        message = cast(Literal["Webhook created successfully."], d.pop("message"))
        if message != "Webhook created successfully.":
            raise ValueError(f"message must match const 'Webhook created successfully.', got '{message}'")

        create_webhook_response_201 = cls(
            data=data,
            message=message,
        )

        return create_webhook_response_201
