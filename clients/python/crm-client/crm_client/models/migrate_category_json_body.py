from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MigrateCategoryJsonBody")


@_attrs_define
class MigrateCategoryJsonBody:
    """
    Attributes:
        target_id (int | str): A record id: a positive integer, as a JSON number (an integral value such as `1.0`
            counts) or as decimal text.
    """

    target_id: int | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        target_id: int | str
        target_id = self.target_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "target_id": target_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_target_id(data: object) -> int | str:
            return cast(int | str, data)

        target_id = _parse_target_id(d.pop("target_id"))

        migrate_category_json_body = cls(
            target_id=target_id,
        )

        migrate_category_json_body.additional_properties = d
        return migrate_category_json_body

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
