from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.set_invoice_items_json_body_items_item_discount_type_type_0 import (
    SetInvoiceItemsJsonBodyItemsItemDiscountTypeType0,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SetInvoiceItemsJsonBodyItemsItem")


@_attrs_define
class SetInvoiceItemsJsonBodyItemsItem:
    """
    Attributes:
        description (str): Text of at most 65535 characters once trimmed and normalised to NFC, HTML allowed, no control
            characters other than tab and line breaks; not blank.
        quantity (float | str): A quantity or unit rate: greater than 0, at most 4 decimals, below 10^11, as a JSON
            number or as text.
        rate (float | str): A quantity or unit rate: greater than 0, at most 4 decimals, below 10^11, as a JSON number
            or as text.
        unit (Literal[''] | None | str | Unset): Unit of measure.
        long_description (Literal[''] | None | str | Unset): Long description.
        tax_rate_id (int | Literal[''] | None | str | Unset): Inline mode only: an enabled tax rate for the line.
        discount_type (Literal[''] | None | SetInvoiceItemsJsonBodyItemsItemDiscountTypeType0 | Unset): Inline mode
            only: the line discount kind.
        discount_value (float | Literal[''] | None | str | Unset): Inline mode only: the fixed amount or the percentage
            (0-100) of the line discount.
    """

    description: str
    quantity: float | str
    rate: float | str
    unit: Literal[""] | None | str | Unset = UNSET
    long_description: Literal[""] | None | str | Unset = UNSET
    tax_rate_id: int | Literal[""] | None | str | Unset = UNSET
    discount_type: Literal[""] | None | SetInvoiceItemsJsonBodyItemsItemDiscountTypeType0 | Unset = UNSET
    discount_value: float | Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        quantity: float | str
        quantity = self.quantity

        rate: float | str
        rate = self.rate

        unit: Literal[""] | None | str | Unset
        if isinstance(self.unit, Unset):
            unit = UNSET
        else:
            unit = self.unit

        long_description: Literal[""] | None | str | Unset
        if isinstance(self.long_description, Unset):
            long_description = UNSET
        else:
            long_description = self.long_description

        tax_rate_id: int | Literal[""] | None | str | Unset
        if isinstance(self.tax_rate_id, Unset):
            tax_rate_id = UNSET
        else:
            tax_rate_id = self.tax_rate_id

        discount_type: Literal[""] | None | str | Unset
        if isinstance(self.discount_type, Unset):
            discount_type = UNSET
        elif isinstance(self.discount_type, SetInvoiceItemsJsonBodyItemsItemDiscountTypeType0):
            discount_type = self.discount_type.value
        else:
            discount_type = self.discount_type

        discount_value: float | Literal[""] | None | str | Unset
        if isinstance(self.discount_value, Unset):
            discount_value = UNSET
        else:
            discount_value = self.discount_value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "quantity": quantity,
                "rate": rate,
            }
        )
        if unit is not UNSET:
            field_dict["unit"] = unit
        if long_description is not UNSET:
            field_dict["long_description"] = long_description
        if tax_rate_id is not UNSET:
            field_dict["tax_rate_id"] = tax_rate_id
        if discount_type is not UNSET:
            field_dict["discount_type"] = discount_type
        if discount_value is not UNSET:
            field_dict["discount_value"] = discount_value

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        def _parse_quantity(data: object) -> float | str:
            return cast(float | str, data)

        quantity = _parse_quantity(d.pop("quantity"))

        def _parse_rate(data: object) -> float | str:
            return cast(float | str, data)

        rate = _parse_rate(d.pop("rate"))

        def _parse_unit(data: object) -> Literal[""] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | str | Unset, data)

        unit = _parse_unit(d.pop("unit", UNSET))

        def _parse_long_description(data: object) -> Literal[""] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | str | Unset, data)

        long_description = _parse_long_description(d.pop("long_description", UNSET))

        def _parse_tax_rate_id(data: object) -> int | Literal[""] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(int | Literal[""] | None | str | Unset, data)

        tax_rate_id = _parse_tax_rate_id(d.pop("tax_rate_id", UNSET))

        def _parse_discount_type(
            data: object,
        ) -> Literal[""] | None | SetInvoiceItemsJsonBodyItemsItemDiscountTypeType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                discount_type_type_0 = SetInvoiceItemsJsonBodyItemsItemDiscountTypeType0(data)

                return discount_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | SetInvoiceItemsJsonBodyItemsItemDiscountTypeType0 | Unset, data)

        discount_type = _parse_discount_type(d.pop("discount_type", UNSET))

        def _parse_discount_value(data: object) -> float | Literal[""] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(float | Literal[""] | None | str | Unset, data)

        discount_value = _parse_discount_value(d.pop("discount_value", UNSET))

        set_invoice_items_json_body_items_item = cls(
            description=description,
            quantity=quantity,
            rate=rate,
            unit=unit,
            long_description=long_description,
            tax_rate_id=tax_rate_id,
            discount_type=discount_type,
            discount_value=discount_value,
        )

        set_invoice_items_json_body_items_item.additional_properties = d
        return set_invoice_items_json_body_items_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
