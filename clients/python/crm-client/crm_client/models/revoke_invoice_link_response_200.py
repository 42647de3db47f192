from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.invoice import Invoice


T = TypeVar("T", bound="RevokeInvoiceLinkResponse200")


@_attrs_define
class RevokeInvoiceLinkResponse200:
    """
    Attributes:
        data (Invoice): An invoice (API.md §9): created, cloned, or converted from an estimate (`estimate_id`).
        message (Literal['Invoice link revoked successfully.']):
    """

    data: Invoice
    message: Literal["Invoice link revoked successfully."]

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

        message = cast(Literal["Invoice link revoked successfully."], d.pop("message"))
        if message != "Invoice link revoked successfully.":
            raise ValueError(f"message must match const 'Invoice link revoked successfully.', got '{message}'")

        revoke_invoice_link_response_200 = cls(
            data=data,
            message=message,
        )

        return revoke_invoice_link_response_200
