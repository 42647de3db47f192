from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.user import User


T = TypeVar("T", bound="GetMeResponse200")


@_attrs_define
class GetMeResponse200:
    """
    Attributes:
        data (User): A user (API.md §17).
        message (Literal['User retrieved successfully.']):
    """

    data: User
    message: Literal["User retrieved successfully."]

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
        from ..models.user import User  # noqa: PLC0415

        d = dict(src_dict)
        data = User.from_dict(d.pop("data"))

        message = cast(Literal["User retrieved successfully."], d.pop("message"))
        if message != "User retrieved successfully.":
            raise ValueError(f"message must match const 'User retrieved successfully.', got '{message}'")

        get_me_response_200 = cls(
            data=data,
            message=message,
        )

        return get_me_response_200
