from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.note import Note


T = TypeVar("T", bound="UpdateNoteResponse200")


@_attrs_define
class UpdateNoteResponse200:
    """
    Attributes:
        data (Note): A note.
        message (Literal['Note updated successfully.']):
    """

    data: Note
    message: Literal["Note updated successfully."]

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.note import Note  # noqa: PLC0415

        d = dict(src_dict)
        data = Note.from_dict(d.pop("data"))

        message = cast(Literal["Note updated successfully."], d.pop("message"))
        if message != "Note updated successfully.":
            raise ValueError(f"message must match const 'Note updated successfully.', got '{message}'")

        update_note_response_200 = cls(
            data=data,
            message=message,
        )

        return update_note_response_200
