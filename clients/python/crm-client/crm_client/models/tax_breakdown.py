from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.tax_breakdown_category import TaxBreakdownCategory

T = TypeVar("T", bound="TaxBreakdown")


@_attrs_define
class TaxBreakdown:
    """One VAT category and rate of a bill (EN 16931 BG-23).

    Attributes:
        category (TaxBreakdownCategory): The VAT category (BT-118).
        rate (str): A percentage as decimal text with two decimals (`"7.50"`).
        base (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's decimals
            (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
        amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's decimals
            (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
    """

    category: TaxBreakdownCategory
    rate: str
    base: str
    amount: str

    def to_dict(self) -> dict[str, Any]:
        category = self.category.value

        rate = self.rate

        base = self.base

        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "category": category,
                "rate": rate,
                "base": base,
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = TaxBreakdownCategory(d.pop("category"))

        rate = d.pop("rate")

        base = d.pop("base")

        amount = d.pop("amount")

        tax_breakdown = cls(
            category=category,
            rate=rate,
            base=base,
            amount=amount,
        )

        return tax_breakdown
