from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.deleted import Deleted


T = TypeVar("T", bound="DeleteNoteResponse200")


@_attrs_define
class DeleteNoteResponse200:
    """
    Attributes:
        data (Deleted): The id of the deleted record.
        message (Literal['Note deleted successfully.']):
    """

    data: Deleted
    message: Literal["Note deleted successfully."]

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
        from ..models.deleted import Deleted  # noqa: PLC0415

        d = dict(src_dict)
        data = Deleted.from_dict(d.pop("data"))

        message = cast(Literal["Note deleted successfully."], d.pop("message"))
        if message != "Note deleted successfully.":
            raise ValueError(f"message must match const 'Note deleted successfully.', got '{message}'")

        delete_note_response_200 = cls(
            data=data,
            message=message,
        )

        return delete_note_response_200
