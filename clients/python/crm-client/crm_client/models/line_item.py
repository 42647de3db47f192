from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.line_item_discount import LineItemDiscount


T = TypeVar("T", bound="LineItem")


@_attrs_define
class LineItem:
    """A line item of an estimate or invoice.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        position (int):
        description (str):
        long_description (None | str):
        unit (None | str):
        unit_code (str): The unit's UN/ECE Recommendation 20 code, as the line's e-invoice states it (BT-130; API.md
            §19): `unit` itself when it is a code of the list EN 16931 accepts (`HUR`, `KGM`, `XPP`), else a common unit
            word's (`hours` → `HUR`, `Tage` → `DAY`, `pcs` → `H87`, `kg` → `KGM`), else `C62` (one). Read-only: write a code
            as the `unit` to choose it.
        quantity (str): A quantity or unit rate as decimal text with two to four decimals (`"2.00"`, `"1.2345"`).
        rate (str): A quantity or unit rate as decimal text with two to four decimals (`"2.00"`, `"1.2345"`).
        total (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's decimals
            (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
        type_ (Literal['plain']):
        tax_status (Literal['taxable']):
        tax_rate_id (int | None):
        discount (LineItemDiscount): The line's discount (inline mode).
    """

    id: int
    position: int
    description: str
    long_description: None | str
    unit: None | str
    unit_code: str
    quantity: str
    rate: str
    total: str
    type_: Literal["plain"]
    tax_status: Literal["taxable"]
    tax_rate_id: int | None
    discount: LineItemDiscount

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        position = self.position

        description = self.description

        long_description: None | str
        long_description = self.long_description

        unit: None | str
        unit = self.unit

        unit_code = self.unit_code

        quantity = self.quantity

        rate = self.rate

        total = self.total

        type_ = self.type_

        tax_status = self.tax_status

        tax_rate_id: int | None
        tax_rate_id = self.tax_rate_id

        discount = self.discount.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "position": position,
                "description": description,
                "long_description": long_description,
                "unit": unit,
                "unit_code": unit_code,
                "quantity": quantity,
                "rate": rate,
                "total": total,
                "type": type_,
                "tax_status": tax_status,
                "tax_rate_id": tax_rate_id,
                "discount": discount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.line_item_discount import LineItemDiscount  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        position = d.pop("position")

        description = d.pop("description")

        def _parse_long_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        long_description = _parse_long_description(d.pop("long_description"))

        def _parse_unit(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        unit = _parse_unit(d.pop("unit"))

        unit_code = d.pop("unit_code")

        quantity = d.pop("quantity")

        rate = d.pop("rate")

        total = d.pop("total")

        type_ = cast(Literal["plain"], d.pop("type"))
        if type_ != "plain":
            raise ValueError(f"type must match const 'plain', got '{type_}'")

        tax_status = cast(Literal["taxable"], d.pop("tax_status"))
        if tax_status != "taxable":
            raise ValueError(f"tax_status must match const 'taxable', got '{tax_status}'")

        def _parse_tax_rate_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        tax_rate_id = _parse_tax_rate_id(d.pop("tax_rate_id"))

        discount = LineItemDiscount.from_dict(d.pop("discount"))

        line_item = cls(
            id=id,
            position=position,
            description=description,
            long_description=long_description,
            unit=unit,
            unit_code=unit_code,
            quantity=quantity,
            rate=rate,
            total=total,
            type_=type_,
            tax_status=tax_status,
            tax_rate_id=tax_rate_id,
            discount=discount,
        )

        return line_item
