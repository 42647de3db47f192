from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AddressInput")


@_attrs_define
class AddressInput:
    """A postal address. On PATCH each member sent changes alone (`address[city]=Berlin`), one sent empty is cleared, and
    `address` itself sent empty (`null`, `""`) clears every line.

        Attributes:
            line1 (Literal[''] | None | str | Unset): First line (street and number): at most 250 characters, one line.
            line2 (Literal[''] | None | str | Unset): Second line.
            city (Literal[''] | None | str | Unset): City.
            postcode (Literal[''] | None | str | Unset): Postal code: at most 100 characters.
            region (Literal[''] | None | str | Unset): Region, state or province.
            country (Literal[''] | None | str | Unset): ISO 3166-1 alpha-2 country code.
    """

    line1: Literal[""] | None | str | Unset = UNSET
    line2: Literal[""] | None | str | Unset = UNSET
    city: Literal[""] | None | str | Unset = UNSET
    postcode: Literal[""] | None | str | Unset = UNSET
    region: Literal[""] | None | str | Unset = UNSET
    country: Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        line1: Literal[""] | None | str | Unset
        if isinstance(self.line1, Unset):
            line1 = UNSET
        else:
            line1 = self.line1

        line2: Literal[""] | None | str | Unset
        if isinstance(self.line2, Unset):
            line2 = UNSET
        else:
            line2 = self.line2

        city: Literal[""] | None | str | Unset
        if isinstance(self.city, Unset):
            city = UNSET
        else:
            city = self.city

        postcode: Literal[""] | None | str | Unset
        if isinstance(self.postcode, Unset):
            postcode = UNSET
        else:
            postcode = self.postcode

        region: Literal[""] | None | str | Unset
        if isinstance(self.region, Unset):
            region = UNSET
        else:
            region = self.region

        country: Literal[""] | None | str | Unset
        if isinstance(self.country, Unset):
            country = UNSET
        else:
            country = self.country

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if line1 is not UNSET:
            field_dict["line1"] = line1
        if line2 is not UNSET:
            field_dict["line2"] = line2
        if city is not UNSET:
            field_dict["city"] = city
        if postcode is not UNSET:
            field_dict["postcode"] = postcode
        if region is not UNSET:
            field_dict["region"] = region
        if country is not UNSET:
            field_dict["country"] = country

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_line1(data: object) -> Literal[""] | None | str | Unset:
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

        line1 = _parse_line1(d.pop("line1", UNSET))

        def _parse_line2(data: object) -> Literal[""] | None | str | Unset:
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

        line2 = _parse_line2(d.pop("line2", UNSET))

        def _parse_city(data: object) -> Literal[""] | None | str | Unset:
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

        city = _parse_city(d.pop("city", UNSET))

        def _parse_postcode(data: object) -> Literal[""] | None | str | Unset:
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

        postcode = _parse_postcode(d.pop("postcode", UNSET))

        def _parse_region(data: object) -> Literal[""] | None | str | Unset:
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

        region = _parse_region(d.pop("region", UNSET))

        def _parse_country(data: object) -> Literal[""] | None | str | Unset:
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

        country = _parse_country(d.pop("country", UNSET))

        address_input = cls(
            line1=line1,
            line2=line2,
            city=city,
            postcode=postcode,
            region=region,
            country=country,
        )

        address_input.additional_properties = d
        return address_input

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
