from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.deleted import Deleted


T = TypeVar("T", bound="DeleteCategoryResponse200")


@_attrs_define
class DeleteCategoryResponse200:
    """
    Attributes:
        data (Deleted): The id of the deleted record.
        message (Literal['Category deleted successfully.']):
    """

    data: Deleted
    message: Literal["Category deleted successfully."]

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

        message = cast(Literal["Category deleted successfully."], d.pop("message"))
        if message != "Category deleted successfully.":
            raise ValueError(f"message must match const 'Category deleted successfully.', got '{message}'")

        delete_category_response_200 = cls(
            data=data,
            message=message,
        )

        return delete_category_response_200
