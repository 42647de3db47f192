from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.update_tax_rate_files_body_status_type_0 import UpdateTaxRateFilesBodyStatusType0
from ..models.update_tax_rate_files_body_vat_category_type_0 import UpdateTaxRateFilesBodyVatCategoryType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateTaxRateFilesBody")


@_attrs_define
class UpdateTaxRateFilesBody:
    """
    Attributes:
        name (Literal[''] | str | Unset): Name (cannot be cleared).
        rate (Literal[''] | str | Unset): The percentage; a rate in use keeps it (409).
        status (Literal[''] | Unset | UpdateTaxRateFilesBodyStatusType0): `enabled` (default) or `disabled`.
        vat_category (Literal[''] | Unset | UpdateTaxRateFilesBodyVatCategoryType0): EN 16931 VAT category: `S` standard
            (rate above 0), `Z` zero rated, `E` exempt, `AE` reverse charge, `K` intra-community, `G` export, `O` outside
            scope (these five need an exemption reason or code and a 0.00 rate), `L`, `M`. Default `S`, or `Z` for a 0.00
            rate.
        exemption_reason (Literal[''] | str | Unset): Why the supply is exempt (BT-120): at most 250 characters, one
            line; only for E, AE, K, G, O.
        exemption_code (Literal[''] | str | Unset): The VATEX code of the reason (BT-121); only for E, AE, K, G, O.
    """

    name: Literal[""] | str | Unset = UNSET
    rate: Literal[""] | str | Unset = UNSET
    status: Literal[""] | Unset | UpdateTaxRateFilesBodyStatusType0 = UNSET
    vat_category: Literal[""] | Unset | UpdateTaxRateFilesBodyVatCategoryType0 = UNSET
    exemption_reason: Literal[""] | str | Unset = UNSET
    exemption_code: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name: Literal[""] | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        rate: Literal[""] | str | Unset
        if isinstance(self.rate, Unset):
            rate = UNSET
        else:
            rate = self.rate

        status: Literal[""] | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, UpdateTaxRateFilesBodyStatusType0):
            status = self.status.value
        else:
            status = self.status

        vat_category: Literal[""] | str | Unset
        if isinstance(self.vat_category, Unset):
            vat_category = UNSET
        elif isinstance(self.vat_category, UpdateTaxRateFilesBodyVatCategoryType0):
            vat_category = self.vat_category.value
        else:
            vat_category = self.vat_category

        exemption_reason: Literal[""] | str | Unset
        if isinstance(self.exemption_reason, Unset):
            exemption_reason = UNSET
        else:
            exemption_reason = self.exemption_reason

        exemption_code: Literal[""] | str | Unset
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

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.name, Unset):
            if isinstance(self.name, str):
                files.append(("name", (None, str(self.name).encode(), "text/plain")))
            else:
                files.append(("name", (None, self.name, "text/plain")))

        if not isinstance(self.rate, Unset):
            if isinstance(self.rate, str):
                files.append(("rate", (None, str(self.rate).encode(), "text/plain")))
            else:
                files.append(("rate", (None, self.rate, "text/plain")))

        if not isinstance(self.status, Unset):
            if isinstance(self.status, UpdateTaxRateFilesBodyStatusType0):
                files.append(("status", (None, str(self.status.value).encode(), "text/plain")))
            else:
                files.append(("status", (None, self.status, "text/plain")))

        if not isinstance(self.vat_category, Unset):
            if isinstance(self.vat_category, UpdateTaxRateFilesBodyVatCategoryType0):
                files.append(("vat_category", (None, str(self.vat_category.value).encode(), "text/plain")))
            else:
                files.append(("vat_category", (None, self.vat_category, "text/plain")))

        if not isinstance(self.exemption_reason, Unset):
            if isinstance(self.exemption_reason, str):
                files.append(("exemption_reason", (None, str(self.exemption_reason).encode(), "text/plain")))
            else:
                files.append(("exemption_reason", (None, self.exemption_reason, "text/plain")))

        if not isinstance(self.exemption_code, Unset):
            if isinstance(self.exemption_code, str):
                files.append(("exemption_code", (None, str(self.exemption_code).encode(), "text/plain")))
            else:
                files.append(("exemption_code", (None, self.exemption_code, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_name(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            name_type_1 = cast(Literal[""], data)
            if name_type_1 != "":
                raise ValueError(f"name_type_1 must match const '', got '{name_type_1}'")
            return name_type_1
            return cast(Literal[""] | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_rate(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            rate_type_1 = cast(Literal[""], data)
            if rate_type_1 != "":
                raise ValueError(f"rate_type_1 must match const '', got '{rate_type_1}'")
            return rate_type_1
            return cast(Literal[""] | str | Unset, data)

        rate = _parse_rate(d.pop("rate", UNSET))

        def _parse_status(data: object) -> Literal[""] | Unset | UpdateTaxRateFilesBodyStatusType0:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = UpdateTaxRateFilesBodyStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            status_type_1 = cast(Literal[""], data)
            if status_type_1 != "":
                raise ValueError(f"status_type_1 must match const '', got '{status_type_1}'")
            return status_type_1

        status = _parse_status(d.pop("status", UNSET))

        def _parse_vat_category(data: object) -> Literal[""] | Unset | UpdateTaxRateFilesBodyVatCategoryType0:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                vat_category_type_0 = UpdateTaxRateFilesBodyVatCategoryType0(data)

                return vat_category_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            vat_category_type_1 = cast(Literal[""], data)
            if vat_category_type_1 != "":
                raise ValueError(f"vat_category_type_1 must match const '', got '{vat_category_type_1}'")
            return vat_category_type_1

        vat_category = _parse_vat_category(d.pop("vat_category", UNSET))

        def _parse_exemption_reason(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            exemption_reason_type_1 = cast(Literal[""], data)
            if exemption_reason_type_1 != "":
                raise ValueError(f"exemption_reason_type_1 must match const '', got '{exemption_reason_type_1}'")
            return exemption_reason_type_1
            return cast(Literal[""] | str | Unset, data)

        exemption_reason = _parse_exemption_reason(d.pop("exemption_reason", UNSET))

        def _parse_exemption_code(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            exemption_code_type_1 = cast(Literal[""], data)
            if exemption_code_type_1 != "":
                raise ValueError(f"exemption_code_type_1 must match const '', got '{exemption_code_type_1}'")
            return exemption_code_type_1
            return cast(Literal[""] | str | Unset, data)

        exemption_code = _parse_exemption_code(d.pop("exemption_code", UNSET))

        update_tax_rate_files_body = cls(
            name=name,
            rate=rate,
            status=status,
            vat_category=vat_category,
            exemption_reason=exemption_reason,
            exemption_code=exemption_code,
        )

        update_tax_rate_files_body.additional_properties = d
        return update_tax_rate_files_body

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
