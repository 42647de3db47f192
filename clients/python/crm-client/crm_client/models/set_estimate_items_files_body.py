from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.set_estimate_items_files_body_items_0_discount_type_type_0 import (
    SetEstimateItemsFilesBodyItems0DiscountTypeType0,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SetEstimateItemsFilesBody")


@_attrs_define
class SetEstimateItemsFilesBody:
    """
    Attributes:
        items0description (str): Text of at most 65535 characters once trimmed and normalised to NFC, HTML allowed, no
            control characters other than tab and line breaks; not blank.
        items0quantity (str): A positive quantity or rate as decimal text.
        items0rate (str): A positive quantity or rate as decimal text.
        items0unit (Literal[''] | str | Unset): `items[0][unit]`: Unit of measure. Further lines use `items[1][…]`,
            `items[2][…]` and so on (ordered by index).
        items0long_description (Literal[''] | str | Unset): `items[0][long_description]`: Long description. Further
            lines use `items[1][…]`, `items[2][…]` and so on (ordered by index).
        items0tax_rate_id (Literal[''] | str | Unset): `items[0][tax_rate_id]`: Inline mode only: an enabled tax rate
            for the line. Further lines use `items[1][…]`, `items[2][…]` and so on (ordered by index).
        items0discount_type (Literal[''] | SetEstimateItemsFilesBodyItems0DiscountTypeType0 | Unset):
            `items[0][discount_type]`: Inline mode only: the line discount kind. Further lines use `items[1][…]`,
            `items[2][…]` and so on (ordered by index).
        items0discount_value (Literal[''] | str | Unset): `items[0][discount_value]`: Inline mode only: the fixed amount
            or the percentage (0-100) of the line discount. Further lines use `items[1][…]`, `items[2][…]` and so on
            (ordered by index).
        tax_rate_ids (list[Literal[''] | str] | Unset): `tax_rate_ids[]=1&tax_rate_ids[]=4`. Summary mode only. Send
            `tax_rate_ids[]=` (or `tax_rate_ids=`) with an empty value for none.
    """

    items0description: str
    items0quantity: str
    items0rate: str
    items0unit: Literal[""] | str | Unset = UNSET
    items0long_description: Literal[""] | str | Unset = UNSET
    items0tax_rate_id: Literal[""] | str | Unset = UNSET
    items0discount_type: Literal[""] | SetEstimateItemsFilesBodyItems0DiscountTypeType0 | Unset = UNSET
    items0discount_value: Literal[""] | str | Unset = UNSET
    tax_rate_ids: list[Literal[""] | str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items0description = self.items0description

        items0quantity = self.items0quantity

        items0rate = self.items0rate

        items0unit: Literal[""] | str | Unset
        if isinstance(self.items0unit, Unset):
            items0unit = UNSET
        else:
            items0unit = self.items0unit

        items0long_description: Literal[""] | str | Unset
        if isinstance(self.items0long_description, Unset):
            items0long_description = UNSET
        else:
            items0long_description = self.items0long_description

        items0tax_rate_id: Literal[""] | str | Unset
        if isinstance(self.items0tax_rate_id, Unset):
            items0tax_rate_id = UNSET
        else:
            items0tax_rate_id = self.items0tax_rate_id

        items0discount_type: Literal[""] | str | Unset
        if isinstance(self.items0discount_type, Unset):
            items0discount_type = UNSET
        elif isinstance(self.items0discount_type, SetEstimateItemsFilesBodyItems0DiscountTypeType0):
            items0discount_type = self.items0discount_type.value
        else:
            items0discount_type = self.items0discount_type

        items0discount_value: Literal[""] | str | Unset
        if isinstance(self.items0discount_value, Unset):
            items0discount_value = UNSET
        else:
            items0discount_value = self.items0discount_value

        tax_rate_ids: list[Literal[""] | str] | Unset = UNSET
        if not isinstance(self.tax_rate_ids, Unset):
            tax_rate_ids = []
            for tax_rate_ids_item_data in self.tax_rate_ids:
                tax_rate_ids_item: Literal[""] | str
                tax_rate_ids_item = tax_rate_ids_item_data
                tax_rate_ids.append(tax_rate_ids_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items[0][description]": items0description,
                "items[0][quantity]": items0quantity,
                "items[0][rate]": items0rate,
            }
        )
        if items0unit is not UNSET:
            field_dict["items[0][unit]"] = items0unit
        if items0long_description is not UNSET:
            field_dict["items[0][long_description]"] = items0long_description
        if items0tax_rate_id is not UNSET:
            field_dict["items[0][tax_rate_id]"] = items0tax_rate_id
        if items0discount_type is not UNSET:
            field_dict["items[0][discount_type]"] = items0discount_type
        if items0discount_value is not UNSET:
            field_dict["items[0][discount_value]"] = items0discount_value
        if tax_rate_ids is not UNSET:
            field_dict["tax_rate_ids[]"] = tax_rate_ids

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("items[0][description]", (None, str(self.items0description).encode(), "text/plain")))

        files.append(("items[0][quantity]", (None, str(self.items0quantity).encode(), "text/plain")))

        files.append(("items[0][rate]", (None, str(self.items0rate).encode(), "text/plain")))

        if not isinstance(self.items0unit, Unset):
            if isinstance(self.items0unit, str):
                files.append(("items[0][unit]", (None, str(self.items0unit).encode(), "text/plain")))
            else:
                files.append(("items[0][unit]", (None, self.items0unit, "text/plain")))

        if not isinstance(self.items0long_description, Unset):
            if isinstance(self.items0long_description, str):
                files.append(
                    ("items[0][long_description]", (None, str(self.items0long_description).encode(), "text/plain"))
                )
            else:
                files.append(("items[0][long_description]", (None, self.items0long_description, "text/plain")))

        if not isinstance(self.items0tax_rate_id, Unset):
            if isinstance(self.items0tax_rate_id, str):
                files.append(("items[0][tax_rate_id]", (None, str(self.items0tax_rate_id).encode(), "text/plain")))
            else:
                files.append(("items[0][tax_rate_id]", (None, self.items0tax_rate_id, "text/plain")))

        if not isinstance(self.items0discount_type, Unset):
            if isinstance(self.items0discount_type, SetEstimateItemsFilesBodyItems0DiscountTypeType0):
                files.append(
                    ("items[0][discount_type]", (None, str(self.items0discount_type.value).encode(), "text/plain"))
                )
            else:
                files.append(("items[0][discount_type]", (None, self.items0discount_type, "text/plain")))

        if not isinstance(self.items0discount_value, Unset):
            if isinstance(self.items0discount_value, str):
                files.append(
                    ("items[0][discount_value]", (None, str(self.items0discount_value).encode(), "text/plain"))
                )
            else:
                files.append(("items[0][discount_value]", (None, self.items0discount_value, "text/plain")))

        if not isinstance(self.tax_rate_ids, Unset):
            for tax_rate_ids_item_element in self.tax_rate_ids:
                if isinstance(tax_rate_ids_item_element, str):
                    files.append(("tax_rate_ids[]", (None, str(tax_rate_ids_item_element).encode(), "text/plain")))
                else:
                    files.append(("tax_rate_ids[]", (None, tax_rate_ids_item_element, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        items0description = d.pop("items[0][description]")

        items0quantity = d.pop("items[0][quantity]")

        items0rate = d.pop("items[0][rate]")

        def _parse_items0unit(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            items0unit_type_1 = cast(Literal[""], data)
            if items0unit_type_1 != "":
                raise ValueError(f"items[0][unit]_type_1 must match const '', got '{items0unit_type_1}'")
            return items0unit_type_1
            return cast(Literal[""] | str | Unset, data)

        items0unit = _parse_items0unit(d.pop("items[0][unit]", UNSET))

        def _parse_items0long_description(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            items0long_description_type_1 = cast(Literal[""], data)
            if items0long_description_type_1 != "":
                raise ValueError(
                    f"items[0][long_description]_type_1 must match const '', got '{items0long_description_type_1}'"
                )
            return items0long_description_type_1
            return cast(Literal[""] | str | Unset, data)

        items0long_description = _parse_items0long_description(d.pop("items[0][long_description]", UNSET))

        def _parse_items0tax_rate_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            items0tax_rate_id_type_1 = cast(Literal[""], data)
            if items0tax_rate_id_type_1 != "":
                raise ValueError(f"items[0][tax_rate_id]_type_1 must match const '', got '{items0tax_rate_id_type_1}'")
            return items0tax_rate_id_type_1
            return cast(Literal[""] | str | Unset, data)

        items0tax_rate_id = _parse_items0tax_rate_id(d.pop("items[0][tax_rate_id]", UNSET))

        def _parse_items0discount_type(
            data: object,
        ) -> Literal[""] | SetEstimateItemsFilesBodyItems0DiscountTypeType0 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                items0discount_type_type_0 = SetEstimateItemsFilesBodyItems0DiscountTypeType0(data)

                return items0discount_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            items0discount_type_type_1 = cast(Literal[""], data)
            if items0discount_type_type_1 != "":
                raise ValueError(
                    f"items[0][discount_type]_type_1 must match const '', got '{items0discount_type_type_1}'"
                )
            return items0discount_type_type_1

        items0discount_type = _parse_items0discount_type(d.pop("items[0][discount_type]", UNSET))

        def _parse_items0discount_value(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            items0discount_value_type_1 = cast(Literal[""], data)
            if items0discount_value_type_1 != "":
                raise ValueError(
                    f"items[0][discount_value]_type_1 must match const '', got '{items0discount_value_type_1}'"
                )
            return items0discount_value_type_1
            return cast(Literal[""] | str | Unset, data)

        items0discount_value = _parse_items0discount_value(d.pop("items[0][discount_value]", UNSET))

        _tax_rate_ids = d.pop("tax_rate_ids[]", UNSET)
        tax_rate_ids: list[Literal[""] | str] | Unset = UNSET
        if _tax_rate_ids is not UNSET:
            tax_rate_ids = []
            for tax_rate_ids_item_data in _tax_rate_ids:

                def _parse_tax_rate_ids_item(data: object) -> Literal[""] | str:
                    tax_rate_ids_item_type_1 = cast(Literal[""], data)
                    if tax_rate_ids_item_type_1 != "":
                        raise ValueError(
                            f"tax_rate_ids[]_item_type_1 must match const '', got '{tax_rate_ids_item_type_1}'"
                        )
                    return tax_rate_ids_item_type_1
                    return cast(Literal[""] | str, data)

                tax_rate_ids_item = _parse_tax_rate_ids_item(tax_rate_ids_item_data)

                tax_rate_ids.append(tax_rate_ids_item)

        set_estimate_items_files_body = cls(
            items0description=items0description,
            items0quantity=items0quantity,
            items0rate=items0rate,
            items0unit=items0unit,
            items0long_description=items0long_description,
            items0tax_rate_id=items0tax_rate_id,
            items0discount_type=items0discount_type,
            items0discount_value=items0discount_value,
            tax_rate_ids=tax_rate_ids,
        )

        set_estimate_items_files_body.additional_properties = d
        return set_estimate_items_files_body

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
