from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.client import Client


T = TypeVar("T", bound="GetClientResponse200")


@_attrs_define
class GetClientResponse200:
    """
    Attributes:
        data (Client): A client: a buyer (API.md §17).
        message (Literal['Client retrieved successfully.']):
    """

    data: Client
    message: Literal["Client retrieved successfully."]

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
        from ..models.client import Client  # noqa: PLC0415

        d = dict(src_dict)
        data = Client.from_dict(d.pop("data"))

        message = cast(Literal["Client retrieved successfully."], d.pop("message"))
        if message != "Client retrieved successfully.":
            raise ValueError(f"message must match const 'Client retrieved successfully.', got '{message}'")

        get_client_response_200 = cls(
            data=data,
            message=message,
        )

        return get_client_response_200
