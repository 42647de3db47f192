from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.page_meta import PageMeta
    from ..models.webhook import Webhook


T = TypeVar("T", bound="ListWebhooksResponse200")


@_attrs_define
class ListWebhooksResponse200:
    """
    Attributes:
        data (list[Webhook]):
        meta (PageMeta): Pagination of a list response.
        message (Literal['Webhooks retrieved successfully.']):
    """

    data: list[Webhook]
    meta: PageMeta
    message: Literal["Webhooks retrieved successfully."]

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        meta = self.meta.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "meta": meta,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.page_meta import PageMeta  # noqa: PLC0415
        from ..models.webhook import Webhook  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Webhook.from_dict(data_item_data)

            data.append(data_item)

        meta = PageMeta.from_dict(d.pop("meta"))

        message = cast(Literal["Webhooks retrieved successfully."], d.pop("message"))
        if message != "Webhooks retrieved successfully.":
            raise ValueError(f"message must match const 'Webhooks retrieved successfully.', got '{message}'")

        list_webhooks_response_200 = cls(
            data=data,
            meta=meta,
            message=message,
        )

        return list_webhooks_response_200
