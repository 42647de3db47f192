from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.einvoice_readiness import EinvoiceReadiness


T = TypeVar("T", bound="GetInvoiceEinvoiceReadinessResponse200")


@_attrs_define
class GetInvoiceEinvoiceReadinessResponse200:
    """
    Attributes:
        data (EinvoiceReadiness): Whether a document can be exported in a format, and what is missing.
        message (Literal['E-invoice readiness retrieved successfully.']):
    """

    data: EinvoiceReadiness
    message: Literal["E-invoice readiness retrieved successfully."]

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
        from ..models.einvoice_readiness import EinvoiceReadiness  # noqa: PLC0415

        d = dict(src_dict)
        data = EinvoiceReadiness.from_dict(d.pop("data"))

        message = cast(Literal["E-invoice readiness retrieved successfully."], d.pop("message"))
        if message != "E-invoice readiness retrieved successfully.":
            raise ValueError(f"message must match const 'E-invoice readiness retrieved successfully.', got '{message}'")

        get_invoice_einvoice_readiness_response_200 = cls(
            data=data,
            message=message,
        )

        return get_invoice_einvoice_readiness_response_200
