from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.invoice import Invoice


T = TypeVar("T", bound="SendInvoiceEmailResponse200")


@_attrs_define
class SendInvoiceEmailResponse200:
    """
    Attributes:
        data (Invoice): An invoice (API.md §9): created, cloned, or converted from an estimate (`estimate_id`).
        message (Literal['Invoice email queued successfully.']):
    """

    data: Invoice
    message: Literal["Invoice email queued successfully."]

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

        message = cast(Literal["Invoice email queued successfully."], d.pop("message"))
        if message != "Invoice email queued successfully.":
            raise ValueError(f"message must match const 'Invoice email queued successfully.', got '{message}'")

        send_invoice_email_response_200 = cls(
            data=data,
            message=message,
        )

        return send_invoice_email_response_200
