from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.invoice import Invoice


T = TypeVar("T", bound="CloneInvoiceResponse201")


@_attrs_define
class CloneInvoiceResponse201:
    """
    Attributes:
        data (Invoice): An invoice (API.md §9): created, cloned, or converted from an estimate (`estimate_id`).
        message (Literal['Invoice cloned successfully.']):
    """

    data: Invoice
    message: Literal["Invoice cloned successfully."]

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
        from ..models.invoice import Invoice  # noqa: PLC0415

        d = dict(src_dict)
        data = Invoice.from_dict(d.pop("data"))

        message = cast(Literal["Invoice cloned successfully."], d.pop("message"))
        if message != "Invoice cloned successfully.":
            raise ValueError(f"message must match const 'Invoice cloned successfully.', got '{message}'")

        clone_invoice_response_201 = cls(
            data=data,
            message=message,
        )

        return clone_invoice_response_201
