from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.line_item_discount_type import LineItemDiscountType

T = TypeVar("T", bound="LineItemDiscount")


@_attrs_define
class LineItemDiscount:
    """The line's discount (inline mode).

    Attributes:
        type_ (LineItemDiscountType):
        value (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's decimals
            (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
        amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's decimals
            (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
    """

    type_: LineItemDiscountType
    value: str
    amount: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        value = self.value

        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "value": value,
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = LineItemDiscountType(d.pop("type"))

        value = d.pop("value")

        amount = d.pop("amount")

        line_item_discount = cls(
            type_=type_,
            value=value,
            amount=amount,
        )

        return line_item_discount
