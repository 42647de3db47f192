from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_with_secret import WebhookWithSecret


T = TypeVar("T", bound="RotateWebhookSecretResponse200")


@_attrs_define
class RotateWebhookSecretResponse200:
    """
    Attributes:
        data (WebhookWithSecret): A webhook endpoint with its secret: the only answers that show it.
        message (Literal['Webhook secret rotated successfully.']):
    """

    data: WebhookWithSecret
    message: Literal["Webhook secret rotated successfully."]

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

        message = cast(Literal["Webhook secret rotated successfully."], d.pop("message"))
        if message != "Webhook secret rotated successfully.":
            raise ValueError(f"message must match const 'Webhook secret rotated successfully.', got '{message}'")

        rotate_webhook_secret_response_200 = cls(
            data=data,
            message=message,
        )

        return rotate_webhook_secret_response_200
