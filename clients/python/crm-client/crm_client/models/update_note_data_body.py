from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.update_note_data_body_note_visibility_type_0 import UpdateNoteDataBodyNoteVisibilityType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateNoteDataBody")


@_attrs_define
class UpdateNoteDataBody:
    """
    Attributes:
        note_title (str): Text of at most 250 characters once trimmed and normalised to NFC, no HTML tags, one line: no
            line breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation selectors and
            tags only inside emoji and script sequences); not blank.
        note_description (str): Text of at most 65535 characters once trimmed and normalised to NFC, HTML allowed, no
            control characters other than tab and line breaks; not blank.
        note_visibility (Literal[''] | Unset | UpdateNoteDataBodyNoteVisibilityType0): Visibility; absent is kept, sent
            empty is `public`.
    """

    note_title: str
    note_description: str
    note_visibility: Literal[""] | Unset | UpdateNoteDataBodyNoteVisibilityType0 = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        note_title = self.note_title

        note_description = self.note_description

        note_visibility: Literal[""] | str | Unset
        if isinstance(self.note_visibility, Unset):
            note_visibility = UNSET
        elif isinstance(self.note_visibility, UpdateNoteDataBodyNoteVisibilityType0):
            note_visibility = self.note_visibility.value
        else:
            note_visibility = self.note_visibility

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "note_title": note_title,
                "note_description": note_description,
            }
        )
        if note_visibility is not UNSET:
            field_dict["note_visibility"] = note_visibility

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        note_title = d.pop("note_title")

        note_description = d.pop("note_description")

        def _parse_note_visibility(data: object) -> Literal[""] | Unset | UpdateNoteDataBodyNoteVisibilityType0:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                note_visibility_type_0 = UpdateNoteDataBodyNoteVisibilityType0(data)

                return note_visibility_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            note_visibility_type_1 = cast(Literal[""], data)
            if note_visibility_type_1 != "":
                raise ValueError(f"note_visibility_type_1 must match const '', got '{note_visibility_type_1}'")
            return note_visibility_type_1

        note_visibility = _parse_note_visibility(d.pop("note_visibility", UNSET))

        update_note_data_body = cls(
            note_title=note_title,
            note_description=note_description,
            note_visibility=note_visibility,
        )

        update_note_data_body.additional_properties = d
        return update_note_data_body

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
