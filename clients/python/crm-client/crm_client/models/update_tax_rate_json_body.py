from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.update_tax_rate_json_body_status_type_0 import UpdateTaxRateJsonBodyStatusType0
from ..models.update_tax_rate_json_body_vat_category_type_0 import UpdateTaxRateJsonBodyVatCategoryType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateTaxRateJsonBody")


@_attrs_define
class UpdateTaxRateJsonBody:
    """
    Attributes:
        name (Literal[''] | None | str | Unset): Name (cannot be cleared).
        rate (float | Literal[''] | None | str | Unset): The percentage; a rate in use keeps it (409).
        status (Literal[''] | None | Unset | UpdateTaxRateJsonBodyStatusType0): `enabled` (default) or `disabled`.
        vat_category (Literal[''] | None | Unset | UpdateTaxRateJsonBodyVatCategoryType0): EN 16931 VAT category: `S`
            standard (rate above 0), `Z` zero rated, `E` exempt, `AE` reverse charge, `K` intra-community, `G` export, `O`
            outside scope (these five need an exemption reason or code and a 0.00 rate), `L`, `M`. Default `S`, or `Z` for a
            0.00 rate.
        exemption_reason (Literal[''] | None | str | Unset): Why the supply is exempt (BT-120): at most 250 characters,
            one line; only for E, AE, K, G, O.
        exemption_code (Literal[''] | None | str | Unset): The VATEX code of the reason (BT-121); only for E, AE, K, G,
            O.
    """

    name: Literal[""] | None | str | Unset = UNSET
    rate: float | Literal[""] | None | str | Unset = UNSET
    status: Literal[""] | None | Unset | UpdateTaxRateJsonBodyStatusType0 = UNSET
    vat_category: Literal[""] | None | Unset | UpdateTaxRateJsonBodyVatCategoryType0 = UNSET
    exemption_reason: Literal[""] | None | str | Unset = UNSET
    exemption_code: Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name: Literal[""] | None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        rate: float | Literal[""] | None | str | Unset
        if isinstance(self.rate, Unset):
            rate = UNSET
        else:
            rate = self.rate

        status: Literal[""] | None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, UpdateTaxRateJsonBodyStatusType0):
            status = self.status.value
        else:
            status = self.status

        vat_category: Literal[""] | None | str | Unset
        if isinstance(self.vat_category, Unset):
            vat_category = UNSET
        elif isinstance(self.vat_category, UpdateTaxRateJsonBodyVatCategoryType0):
            vat_category = self.vat_category.value
        else:
            vat_category = self.vat_category

        exemption_reason: Literal[""] | None | str | Unset
        if isinstance(self.exemption_reason, Unset):
            exemption_reason = UNSET
        else:
            exemption_reason = self.exemption_reason

        exemption_code: Literal[""] | None | str | Unset
        if isinstance(self.exemption_code, Unset):
            exemption_code = UNSET
        else:
            exemption_code = self.exemption_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if rate is not UNSET:
            field_dict["rate"] = rate
        if status is not UNSET:
            field_dict["status"] = status
        if vat_category is not UNSET:
            field_dict["vat_category"] = vat_category
        if exemption_reason is not UNSET:
            field_dict["exemption_reason"] = exemption_reason
        if exemption_code is not UNSET:
            field_dict["exemption_code"] = exemption_code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_name(data: object) -> Literal[""] | None | str | Unset:
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

        name = _parse_name(d.pop("name", UNSET))

        def _parse_rate(data: object) -> float | Literal[""] | None | str | Unset:
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

        rate = _parse_rate(d.pop("rate", UNSET))

        def _parse_status(data: object) -> Literal[""] | None | Unset | UpdateTaxRateJsonBodyStatusType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = UpdateTaxRateJsonBodyStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateTaxRateJsonBodyStatusType0, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_vat_category(data: object) -> Literal[""] | None | Unset | UpdateTaxRateJsonBodyVatCategoryType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                vat_category_type_0 = UpdateTaxRateJsonBodyVatCategoryType0(data)

                return vat_category_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateTaxRateJsonBodyVatCategoryType0, data)

        vat_category = _parse_vat_category(d.pop("vat_category", UNSET))

        def _parse_exemption_reason(data: object) -> Literal[""] | None | str | Unset:
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

        exemption_reason = _parse_exemption_reason(d.pop("exemption_reason", UNSET))

        def _parse_exemption_code(data: object) -> Literal[""] | None | str | Unset:
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

        exemption_code = _parse_exemption_code(d.pop("exemption_code", UNSET))

        update_tax_rate_json_body = cls(
            name=name,
            rate=rate,
            status=status,
            vat_category=vat_category,
            exemption_reason=exemption_reason,
            exemption_code=exemption_code,
        )

        update_tax_rate_json_body.additional_properties = d
        return update_tax_rate_json_body

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
