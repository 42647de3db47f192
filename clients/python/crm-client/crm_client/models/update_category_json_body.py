from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.update_category_json_body_category_visibility_type_0 import UpdateCategoryJsonBodyCategoryVisibilityType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateCategoryJsonBody")


@_attrs_define
class UpdateCategoryJsonBody:
    """
    Attributes:
        category_name (str): Text of at most 150 characters once trimmed and normalised to NFC, no HTML tags, one line:
            no line breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation selectors
            and tags only inside emoji and script sequences); not blank.
        category_visibility (Literal[''] | None | Unset | UpdateCategoryJsonBodyCategoryVisibilityType0): Visibility;
            sent empty it is cleared, absent it is kept.
        category_description (Literal[''] | None | str | Unset): Description; sent empty it is cleared, absent it is
            kept.
        category_icon (Literal[''] | None | str | Unset): Icon class; sent empty it is cleared, absent it is kept.
    """

    category_name: str
    category_visibility: Literal[""] | None | Unset | UpdateCategoryJsonBodyCategoryVisibilityType0 = UNSET
    category_description: Literal[""] | None | str | Unset = UNSET
    category_icon: Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        category_name = self.category_name

        category_visibility: Literal[""] | None | str | Unset
        if isinstance(self.category_visibility, Unset):
            category_visibility = UNSET
        elif isinstance(self.category_visibility, UpdateCategoryJsonBodyCategoryVisibilityType0):
            category_visibility = self.category_visibility.value
        else:
            category_visibility = self.category_visibility

        category_description: Literal[""] | None | str | Unset
        if isinstance(self.category_description, Unset):
            category_description = UNSET
        else:
            category_description = self.category_description

        category_icon: Literal[""] | None | str | Unset
        if isinstance(self.category_icon, Unset):
            category_icon = UNSET
        else:
            category_icon = self.category_icon

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "category_name": category_name,
            }
        )
        if category_visibility is not UNSET:
            field_dict["category_visibility"] = category_visibility
        if category_description is not UNSET:
            field_dict["category_description"] = category_description
        if category_icon is not UNSET:
            field_dict["category_icon"] = category_icon

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category_name = d.pop("category_name")

        def _parse_category_visibility(
            data: object,
        ) -> Literal[""] | None | Unset | UpdateCategoryJsonBodyCategoryVisibilityType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                category_visibility_type_0 = UpdateCategoryJsonBodyCategoryVisibilityType0(data)

                return category_visibility_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateCategoryJsonBodyCategoryVisibilityType0, data)

        category_visibility = _parse_category_visibility(d.pop("category_visibility", UNSET))

        def _parse_category_description(data: object) -> Literal[""] | None | str | Unset:
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

        category_description = _parse_category_description(d.pop("category_description", UNSET))

        def _parse_category_icon(data: object) -> Literal[""] | None | str | Unset:
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

        category_icon = _parse_category_icon(d.pop("category_icon", UNSET))

        update_category_json_body = cls(
            category_name=category_name,
            category_visibility=category_visibility,
            category_description=category_description,
            category_icon=category_icon,
        )

        update_category_json_body.additional_properties = d
        return update_category_json_body

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
