from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.note_resource_type_type_1 import NoteResourceTypeType1
from ..models.note_resource_type_type_2_type_1 import NoteResourceTypeType2Type1
from ..models.note_resource_type_type_3_type_1 import NoteResourceTypeType3Type1

T = TypeVar("T", bound="NoteResource")


@_attrs_define
class NoteResource:
    """The attached resource; both null for a standalone note.

    Attributes:
        type_ (None | NoteResourceTypeType1 | NoteResourceTypeType2Type1 | NoteResourceTypeType3Type1):
        id (int | None):
    """

    type_: None | NoteResourceTypeType1 | NoteResourceTypeType2Type1 | NoteResourceTypeType3Type1
    id: int | None

    def to_dict(self) -> dict[str, Any]:
        type_: None | str
        if isinstance(self.type_, NoteResourceTypeType1):
            type_ = self.type_.value
        elif isinstance(self.type_, NoteResourceTypeType2Type1):
            type_ = self.type_.value
        elif isinstance(self.type_, NoteResourceTypeType3Type1):
            type_ = self.type_.value
        else:
            type_ = self.type_

        id: int | None
        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_type_(
            data: object,
        ) -> None | NoteResourceTypeType1 | NoteResourceTypeType2Type1 | NoteResourceTypeType3Type1:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_1 = NoteResourceTypeType1(data)

                return type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_2_type_1 = NoteResourceTypeType2Type1(data)

                return type_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_3_type_1 = NoteResourceTypeType3Type1(data)

                return type_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | NoteResourceTypeType1 | NoteResourceTypeType2Type1 | NoteResourceTypeType3Type1, data)

        type_ = _parse_type_(d.pop("type"))

        def _parse_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        id = _parse_id(d.pop("id"))

        note_resource = cls(
            type_=type_,
            id=id,
        )

        return note_resource
