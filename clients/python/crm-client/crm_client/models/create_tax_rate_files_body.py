from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.create_tax_rate_files_body_status_type_0 import CreateTaxRateFilesBodyStatusType0
from ..models.create_tax_rate_files_body_vat_category_type_0 import CreateTaxRateFilesBodyVatCategoryType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateTaxRateFilesBody")


@_attrs_define
class CreateTaxRateFilesBody:
    """
    Attributes:
        name (str): Text of at most 250 characters once trimmed and normalised to NFC, no HTML tags, one line: no line
            breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation selectors and tags
            only inside emoji and script sequences); not blank.
        rate (str): A percentage as decimal text.
        status (CreateTaxRateFilesBodyStatusType0 | Literal[''] | Unset): `enabled` (default) or `disabled`.
        vat_category (CreateTaxRateFilesBodyVatCategoryType0 | Literal[''] | Unset): EN 16931 VAT category: `S` standard
            (rate above 0), `Z` zero rated, `E` exempt, `AE` reverse charge, `K` intra-community, `G` export, `O` outside
            scope (these five need an exemption reason or code and a 0.00 rate), `L`, `M`. Default `S`, or `Z` for a 0.00
            rate.
        exemption_reason (Literal[''] | str | Unset): Why the supply is exempt (BT-120): at most 250 characters, one
            line; only for E, AE, K, G, O.
        exemption_code (Literal[''] | str | Unset): The VATEX code of the reason (BT-121); only for E, AE, K, G, O.
    """

    name: str
    rate: str
    status: CreateTaxRateFilesBodyStatusType0 | Literal[""] | Unset = UNSET
    vat_category: CreateTaxRateFilesBodyVatCategoryType0 | Literal[""] | Unset = UNSET
    exemption_reason: Literal[""] | str | Unset = UNSET
    exemption_code: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        rate = self.rate

        status: Literal[""] | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, CreateTaxRateFilesBodyStatusType0):
            status = self.status.value
        else:
            status = self.status

        vat_category: Literal[""] | str | Unset
        if isinstance(self.vat_category, Unset):
            vat_category = UNSET
        elif isinstance(self.vat_category, CreateTaxRateFilesBodyVatCategoryType0):
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
        field_dict.update(
            {
                "name": name,
                "rate": rate,
            }
        )
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

        files.append(("name", (None, str(self.name).encode(), "text/plain")))

        files.append(("rate", (None, str(self.rate).encode(), "text/plain")))

        if not isinstance(self.status, Unset):
            if isinstance(self.status, CreateTaxRateFilesBodyStatusType0):
                files.append(("status", (None, str(self.status.value).encode(), "text/plain")))
            else:
                files.append(("status", (None, self.status, "text/plain")))

        if not isinstance(self.vat_category, Unset):
            if isinstance(self.vat_category, CreateTaxRateFilesBodyVatCategoryType0):
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
        name = d.pop("name")

        rate = d.pop("rate")

        def _parse_status(data: object) -> CreateTaxRateFilesBodyStatusType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = CreateTaxRateFilesBodyStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            status_type_1 = cast(Literal[""], data)
            if status_type_1 != "":
                raise ValueError(f"status_type_1 must match const '', got '{status_type_1}'")
            return status_type_1

        status = _parse_status(d.pop("status", UNSET))

        def _parse_vat_category(data: object) -> CreateTaxRateFilesBodyVatCategoryType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                vat_category_type_0 = CreateTaxRateFilesBodyVatCategoryType0(data)

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

        create_tax_rate_files_body = cls(
            name=name,
            rate=rate,
            status=status,
            vat_category=vat_category,
            exemption_reason=exemption_reason,
            exemption_code=exemption_code,
        )

        create_tax_rate_files_body.additional_properties = d
        return create_tax_rate_files_body

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
