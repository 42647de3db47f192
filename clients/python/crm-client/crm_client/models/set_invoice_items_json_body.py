from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.set_invoice_items_json_body_items_item import SetInvoiceItemsJsonBodyItemsItem


T = TypeVar("T", bound="SetInvoiceItemsJsonBody")


@_attrs_define
class SetInvoiceItemsJsonBody:
    """
    Attributes:
        items (list[SetInvoiceItemsJsonBodyItemsItem]): The complete set of line items, in order (positions 1..n).
        tax_rate_ids (list[int | Literal[''] | None | str] | Literal[''] | None | Unset): Summary mode only: the
            document-level tax rates (enabled, distinct). Absent means no summary taxes.
    """

    items: list[SetInvoiceItemsJsonBodyItemsItem]
    tax_rate_ids: list[int | Literal[""] | None | str] | Literal[""] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        tax_rate_ids: list[int | Literal[""] | None | str] | Literal[""] | None | Unset
        if isinstance(self.tax_rate_ids, Unset):
            tax_rate_ids = UNSET
        elif isinstance(self.tax_rate_ids, list):
            tax_rate_ids = []
            for tax_rate_ids_type_0_item_data in self.tax_rate_ids:
                tax_rate_ids_type_0_item: int | Literal[""] | None | str
                tax_rate_ids_type_0_item = tax_rate_ids_type_0_item_data
                tax_rate_ids.append(tax_rate_ids_type_0_item)

        else:
            tax_rate_ids = self.tax_rate_ids

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
            }
        )
        if tax_rate_ids is not UNSET:
            field_dict["tax_rate_ids"] = tax_rate_ids

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.set_invoice_items_json_body_items_item import SetInvoiceItemsJsonBodyItemsItem  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = SetInvoiceItemsJsonBodyItemsItem.from_dict(items_item_data)

            items.append(items_item)

        def _parse_tax_rate_ids(data: object) -> list[int | Literal[""] | None | str] | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tax_rate_ids_type_0 = []
                _tax_rate_ids_type_0 = data
                for tax_rate_ids_type_0_item_data in _tax_rate_ids_type_0:

                    def _parse_tax_rate_ids_type_0_item(data: object) -> int | Literal[""] | None | str:
                        if data is None:
                            return data
                        componentsschemas_blank_type_1 = cast(Literal[""], data)
                        if componentsschemas_blank_type_1 != "":
                            raise ValueError(
                                f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                            )
                        return componentsschemas_blank_type_1
                        return cast(int | Literal[""] | None | str, data)

                    tax_rate_ids_type_0_item = _parse_tax_rate_ids_type_0_item(tax_rate_ids_type_0_item_data)

                    tax_rate_ids_type_0.append(tax_rate_ids_type_0_item)

                return tax_rate_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(list[int | Literal[""] | None | str] | Literal[""] | None | Unset, data)

        tax_rate_ids = _parse_tax_rate_ids(d.pop("tax_rate_ids", UNSET))

        set_invoice_items_json_body = cls(
            items=items,
            tax_rate_ids=tax_rate_ids,
        )

        set_invoice_items_json_body.additional_properties = d
        return set_invoice_items_json_body

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
