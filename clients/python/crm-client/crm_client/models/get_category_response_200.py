from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.category import Category


T = TypeVar("T", bound="GetCategoryResponse200")


@_attrs_define
class GetCategoryResponse200:
    """
    Attributes:
        data (Category): A category.
        message (Literal['Category retrieved successfully.']):
    """

    data: Category
    message: Literal["Category retrieved successfully."]

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
        from ..models.category import Category  # noqa: PLC0415

        d = dict(src_dict)
        data = Category.from_dict(d.pop("data"))

        message = cast(Literal["Category retrieved successfully."], d.pop("message"))
        if message != "Category retrieved successfully.":
            raise ValueError(f"message must match const 'Category retrieved successfully.', got '{message}'")

        get_category_response_200 = cls(
            data=data,
            message=message,
        )

        return get_category_response_200
