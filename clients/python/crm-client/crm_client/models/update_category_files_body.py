from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.update_category_files_body_category_visibility_type_0 import (
    UpdateCategoryFilesBodyCategoryVisibilityType0,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateCategoryFilesBody")


@_attrs_define
class UpdateCategoryFilesBody:
    """
    Attributes:
        category_name (str): Text of at most 150 characters once trimmed and normalised to NFC, no HTML tags, one line:
            no line breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation selectors
            and tags only inside emoji and script sequences); not blank.
        category_visibility (Literal[''] | Unset | UpdateCategoryFilesBodyCategoryVisibilityType0): Visibility; sent
            empty it is cleared, absent it is kept.
        category_description (Literal[''] | str | Unset): Description; sent empty it is cleared, absent it is kept.
        category_icon (Literal[''] | str | Unset): Icon class; sent empty it is cleared, absent it is kept.
    """

    category_name: str
    category_visibility: Literal[""] | Unset | UpdateCategoryFilesBodyCategoryVisibilityType0 = UNSET
    category_description: Literal[""] | str | Unset = UNSET
    category_icon: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        category_name = self.category_name

        category_visibility: Literal[""] | str | Unset
        if isinstance(self.category_visibility, Unset):
            category_visibility = UNSET
        elif isinstance(self.category_visibility, UpdateCategoryFilesBodyCategoryVisibilityType0):
            category_visibility = self.category_visibility.value
        else:
            category_visibility = self.category_visibility

        category_description: Literal[""] | str | Unset
        if isinstance(self.category_description, Unset):
            category_description = UNSET
        else:
            category_description = self.category_description

        category_icon: Literal[""] | str | Unset
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

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("category_name", (None, str(self.category_name).encode(), "text/plain")))

        if not isinstance(self.category_visibility, Unset):
            if isinstance(self.category_visibility, UpdateCategoryFilesBodyCategoryVisibilityType0):
                files.append(
                    ("category_visibility", (None, str(self.category_visibility.value).encode(), "text/plain"))
                )
            else:
                files.append(("category_visibility", (None, self.category_visibility, "text/plain")))

        if not isinstance(self.category_description, Unset):
            if isinstance(self.category_description, str):
                files.append(("category_description", (None, str(self.category_description).encode(), "text/plain")))
            else:
                files.append(("category_description", (None, self.category_description, "text/plain")))

        if not isinstance(self.category_icon, Unset):
            if isinstance(self.category_icon, str):
                files.append(("category_icon", (None, str(self.category_icon).encode(), "text/plain")))
            else:
                files.append(("category_icon", (None, self.category_icon, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category_name = d.pop("category_name")

        def _parse_category_visibility(
            data: object,
        ) -> Literal[""] | Unset | UpdateCategoryFilesBodyCategoryVisibilityType0:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                category_visibility_type_0 = UpdateCategoryFilesBodyCategoryVisibilityType0(data)

                return category_visibility_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            category_visibility_type_1 = cast(Literal[""], data)
            if category_visibility_type_1 != "":
                raise ValueError(f"category_visibility_type_1 must match const '', got '{category_visibility_type_1}'")
            return category_visibility_type_1

        category_visibility = _parse_category_visibility(d.pop("category_visibility", UNSET))

        def _parse_category_description(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            category_description_type_1 = cast(Literal[""], data)
            if category_description_type_1 != "":
                raise ValueError(
                    f"category_description_type_1 must match const '', got '{category_description_type_1}'"
                )
            return category_description_type_1
            return cast(Literal[""] | str | Unset, data)

        category_description = _parse_category_description(d.pop("category_description", UNSET))

        def _parse_category_icon(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            category_icon_type_1 = cast(Literal[""], data)
            if category_icon_type_1 != "":
                raise ValueError(f"category_icon_type_1 must match const '', got '{category_icon_type_1}'")
            return category_icon_type_1
            return cast(Literal[""] | str | Unset, data)

        category_icon = _parse_category_icon(d.pop("category_icon", UNSET))

        update_category_files_body = cls(
            category_name=category_name,
            category_visibility=category_visibility,
            category_description=category_description,
            category_icon=category_icon,
        )

        update_category_files_body.additional_properties = d
        return update_category_files_body

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
