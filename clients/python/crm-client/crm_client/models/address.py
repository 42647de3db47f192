from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Address")


@_attrs_define
class Address:
    """A postal address; a line never set is `null`.

    Attributes:
        line1 (None | str):
        line2 (None | str):
        city (None | str):
        postcode (None | str):
        region (None | str):
        country (None | str): ISO 3166-1 alpha-2.
    """

    line1: None | str
    line2: None | str
    city: None | str
    postcode: None | str
    region: None | str
    country: None | str

    def to_dict(self) -> dict[str, Any]:
        line1: None | str
        line1 = self.line1

        line2: None | str
        line2 = self.line2

        city: None | str
        city = self.city

        postcode: None | str
        postcode = self.postcode

        region: None | str
        region = self.region

        country: None | str
        country = self.country

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "line1": line1,
                "line2": line2,
                "city": city,
                "postcode": postcode,
                "region": region,
                "country": country,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_line1(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        line1 = _parse_line1(d.pop("line1"))

        def _parse_line2(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        line2 = _parse_line2(d.pop("line2"))

        def _parse_city(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        city = _parse_city(d.pop("city"))

        def _parse_postcode(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        postcode = _parse_postcode(d.pop("postcode"))

        def _parse_region(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        region = _parse_region(d.pop("region"))

        def _parse_country(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        country = _parse_country(d.pop("country"))

        address = cls(
            line1=line1,
            line2=line2,
            city=city,
            postcode=postcode,
            region=region,
            country=country,
        )

        return address
