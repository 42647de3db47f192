from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.activity import Activity
    from ..models.page_meta import PageMeta


T = TypeVar("T", bound="ListRecurringInvoiceActivityResponse200")


@_attrs_define
class ListRecurringInvoiceActivityResponse200:
    """
    Attributes:
        data (list[Activity]):
        meta (PageMeta): Pagination of a list response.
        message (Literal['Activity retrieved successfully.']):
    """

    data: list[Activity]
    meta: PageMeta
    message: Literal["Activity retrieved successfully."]

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
        from ..models.activity import Activity  # noqa: PLC0415
        from ..models.page_meta import PageMeta  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Activity.from_dict(data_item_data)

            data.append(data_item)

        meta = PageMeta.from_dict(d.pop("meta"))

        message = cast(Literal["Activity retrieved successfully."], d.pop("message"))
        if message != "Activity retrieved successfully.":
            raise ValueError(f"message must match const 'Activity retrieved successfully.', got '{message}'")

        list_recurring_invoice_activity_response_200 = cls(
            data=data,
            meta=meta,
            message=message,
        )

        return list_recurring_invoice_activity_response_200
