from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReorderMilestonesJsonBody")


@_attrs_define
class ReorderMilestonesJsonBody:
    """
    Attributes:
        milestones (list[int | Literal[''] | None | str]): Distinct existing milestone ids of one project, in the new
            order (at least one).
    """

    milestones: list[int | Literal[""] | None | str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        milestones = []
        for milestones_item_data in self.milestones:
            milestones_item: int | Literal[""] | None | str
            milestones_item = milestones_item_data
            milestones.append(milestones_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "milestones": milestones,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        milestones = []
        _milestones = d.pop("milestones")
        for milestones_item_data in _milestones:

            def _parse_milestones_item(data: object) -> int | Literal[""] | None | str:
                if data is None:
                    return data
                componentsschemas_blank_type_1 = cast(Literal[""], data)
                if componentsschemas_blank_type_1 != "":
                    raise ValueError(
                        f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                    )
                return componentsschemas_blank_type_1
                return cast(int | Literal[""] | None | str, data)

            milestones_item = _parse_milestones_item(milestones_item_data)

            milestones.append(milestones_item)

        reorder_milestones_json_body = cls(
            milestones=milestones,
        )

        reorder_milestones_json_body.additional_properties = d
        return reorder_milestones_json_body

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
