from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.tax_record_vat_category_type_0 import TaxRecordVatCategoryType0

T = TypeVar("T", bound="TaxRecord")


@_attrs_define
class TaxRecord:
    """A tax applied to a bill: summary mode has `lineitem_id` null, inline and VAT modes one record per taxed line.

    Attributes:
        name (str):
        rate (str): A percentage as decimal text with two decimals (`"7.50"`).
        tax_rate_id (int | None):
        lineitem_id (int | None):
        vat_category (None | TaxRecordVatCategoryType0): The tax rate's VAT category (EN 16931), which a rate in use
            keeps; `null` when the rate was deleted.
    """

    name: str
    rate: str
    tax_rate_id: int | None
    lineitem_id: int | None
    vat_category: None | TaxRecordVatCategoryType0

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        rate = self.rate

        tax_rate_id: int | None
        tax_rate_id = self.tax_rate_id

        lineitem_id: int | None
        lineitem_id = self.lineitem_id

        vat_category: None | str
        if isinstance(self.vat_category, TaxRecordVatCategoryType0):
            vat_category = self.vat_category.value
        else:
            vat_category = self.vat_category

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "rate": rate,
                "tax_rate_id": tax_rate_id,
                "lineitem_id": lineitem_id,
                "vat_category": vat_category,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        rate = d.pop("rate")

        def _parse_tax_rate_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        tax_rate_id = _parse_tax_rate_id(d.pop("tax_rate_id"))

        def _parse_lineitem_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        lineitem_id = _parse_lineitem_id(d.pop("lineitem_id"))

        def _parse_vat_category(data: object) -> None | TaxRecordVatCategoryType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                vat_category_type_0 = TaxRecordVatCategoryType0(data)

                return vat_category_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaxRecordVatCategoryType0, data)

        vat_category = _parse_vat_category(d.pop("vat_category"))

        tax_record = cls(
            name=name,
            rate=rate,
            tax_rate_id=tax_rate_id,
            lineitem_id=lineitem_id,
            vat_category=vat_category,
        )

        return tax_record
