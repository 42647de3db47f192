from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.invoice_status_color import InvoiceStatusColor
from ..models.invoice_status_id import InvoiceStatusId
from ..models.invoice_status_title import InvoiceStatusTitle

T = TypeVar("T", bound="InvoiceStatus")


@_attrs_define
class InvoiceStatus:
    """The shown status: a stored Due or Part Paid invoice whose due date is past shows as Overdue (3).

    Attributes:
        id (InvoiceStatusId):
        title (InvoiceStatusTitle):
        color (InvoiceStatusColor):
    """

    id: InvoiceStatusId
    title: InvoiceStatusTitle
    color: InvoiceStatusColor

    def to_dict(self) -> dict[str, Any]:
        id = self.id.value

        title = self.title.value

        color = self.color.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "color": color,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = InvoiceStatusId(d.pop("id"))

        title = InvoiceStatusTitle(d.pop("title"))

        color = InvoiceStatusColor(d.pop("color"))

        invoice_status = cls(
            id=id,
            title=title,
            color=color,
        )

        return invoice_status
