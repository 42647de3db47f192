from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.tax_rate import TaxRate


T = TypeVar("T", bound="UpdateTaxRateResponse200")


@_attrs_define
class UpdateTaxRateResponse200:
    """
    Attributes:
        data (TaxRate): A tax rate with its EN 16931 VAT category (API.md §17).
        message (Literal['Tax rate updated successfully.']):
    """

    data: TaxRate
    message: Literal["Tax rate updated successfully."]

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
        from ..models.tax_rate import TaxRate  # noqa: PLC0415

        d = dict(src_dict)
        data = TaxRate.from_dict(d.pop("data"))

        message = cast(Literal["Tax rate updated successfully."], d.pop("message"))
        if message != "Tax rate updated successfully.":
            raise ValueError(f"message must match const 'Tax rate updated successfully.', got '{message}'")

        update_tax_rate_response_200 = cls(
            data=data,
            message=message,
        )

        return update_tax_rate_response_200
