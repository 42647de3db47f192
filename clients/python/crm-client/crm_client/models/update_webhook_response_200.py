from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook import Webhook


T = TypeVar("T", bound="UpdateWebhookResponse200")


@_attrs_define
class UpdateWebhookResponse200:
    """
    Attributes:
        data (Webhook): A webhook endpoint (API.md §13). Its secret is shown only when it is created and when it is
            rotated.
        message (Literal['Webhook updated successfully.']):
    """

    data: Webhook
    message: Literal["Webhook updated successfully."]

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
        from ..models.webhook import Webhook  # noqa: PLC0415

        d = dict(src_dict)
        data = Webhook.from_dict(d.pop("data"))

        message = cast(Literal["Webhook updated successfully."], d.pop("message"))
        if message != "Webhook updated successfully.":
            raise ValueError(f"message must match const 'Webhook updated successfully.', got '{message}'")

        update_webhook_response_200 = cls(
            data=data,
            message=message,
        )

        return update_webhook_response_200
