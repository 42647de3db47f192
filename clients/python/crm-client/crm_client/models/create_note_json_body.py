from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_note_json_body_note_visibility_type_0 import CreateNoteJsonBodyNoteVisibilityType0
from ..models.create_note_json_body_noteresource_type_type_0 import CreateNoteJsonBodyNoteresourceTypeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateNoteJsonBody")


@_attrs_define
class CreateNoteJsonBody:
    """
    Attributes:
        note_title (str): Text of at most 250 characters once trimmed and normalised to NFC, no HTML tags, one line: no
            line breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation selectors and
            tags only inside emoji and script sequences); not blank.
        note_description (str): Text of at most 65535 characters once trimmed and normalised to NFC, HTML allowed, no
            control characters other than tab and line breaks; not blank.
        note_visibility (CreateNoteJsonBodyNoteVisibilityType0 | Literal[''] | None | Unset): `public` (default) or
            `private` (visible only to its creator).
        noteresource_type (CreateNoteJsonBodyNoteresourceTypeType0 | Literal[''] | None | Unset): The kind of record the
            note is attached to; requires `noteresource_id`.
        noteresource_id (int | Literal[''] | None | str | Unset): The attached record (must exist in the type's table);
            requires `noteresource_type`.
    """

    note_title: str
    note_description: str
    note_visibility: CreateNoteJsonBodyNoteVisibilityType0 | Literal[""] | None | Unset = UNSET
    noteresource_type: CreateNoteJsonBodyNoteresourceTypeType0 | Literal[""] | None | Unset = UNSET
    noteresource_id: int | Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        note_title = self.note_title

        note_description = self.note_description

        note_visibility: Literal[""] | None | str | Unset
        if isinstance(self.note_visibility, Unset):
            note_visibility = UNSET
        elif isinstance(self.note_visibility, CreateNoteJsonBodyNoteVisibilityType0):
            note_visibility = self.note_visibility.value
        else:
            note_visibility = self.note_visibility

        noteresource_type: Literal[""] | None | str | Unset
        if isinstance(self.noteresource_type, Unset):
            noteresource_type = UNSET
        elif isinstance(self.noteresource_type, CreateNoteJsonBodyNoteresourceTypeType0):
            noteresource_type = self.noteresource_type.value
        else:
            noteresource_type = self.noteresource_type

        noteresource_id: int | Literal[""] | None | str | Unset
        if isinstance(self.noteresource_id, Unset):
            noteresource_id = UNSET
        else:
            noteresource_id = self.noteresource_id

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
        if noteresource_type is not UNSET:
            field_dict["noteresource_type"] = noteresource_type
        if noteresource_id is not UNSET:
            field_dict["noteresource_id"] = noteresource_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        note_title = d.pop("note_title")

        note_description = d.pop("note_description")

        def _parse_note_visibility(data: object) -> CreateNoteJsonBodyNoteVisibilityType0 | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                note_visibility_type_0 = CreateNoteJsonBodyNoteVisibilityType0(data)

                return note_visibility_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(CreateNoteJsonBodyNoteVisibilityType0 | Literal[""] | None | Unset, data)

        note_visibility = _parse_note_visibility(d.pop("note_visibility", UNSET))

        def _parse_noteresource_type(
            data: object,
        ) -> CreateNoteJsonBodyNoteresourceTypeType0 | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                noteresource_type_type_0 = CreateNoteJsonBodyNoteresourceTypeType0(data)

                return noteresource_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(CreateNoteJsonBodyNoteresourceTypeType0 | Literal[""] | None | Unset, data)

        noteresource_type = _parse_noteresource_type(d.pop("noteresource_type", UNSET))

        def _parse_noteresource_id(data: object) -> int | Literal[""] | None | str | Unset:
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
            return cast(int | Literal[""] | None | str | Unset, data)

        noteresource_id = _parse_noteresource_id(d.pop("noteresource_id", UNSET))

        create_note_json_body = cls(
            note_title=note_title,
            note_description=note_description,
            note_visibility=note_visibility,
            noteresource_type=noteresource_type,
            noteresource_id=noteresource_id,
        )

        create_note_json_body.additional_properties = d
        return create_note_json_body

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
