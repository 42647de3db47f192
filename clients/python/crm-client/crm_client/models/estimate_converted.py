from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="EstimateConverted")


@_attrs_define
class EstimateConverted:
    """
    Attributes:
        is_converted (bool):
        invoice_id (int | None):
    """

    is_converted: bool
    invoice_id: int | None

    def to_dict(self) -> dict[str, Any]:
        is_converted = self.is_converted

        invoice_id: int | None
        invoice_id = self.invoice_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "is_converted": is_converted,
                "invoice_id": invoice_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        is_converted = d.pop("is_converted")

        def _parse_invoice_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        invoice_id = _parse_invoice_id(d.pop("invoice_id"))

        estimate_converted = cls(
            is_converted=is_converted,
            invoice_id=invoice_id,
        )

        return estimate_converted
