from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.client import Client


T = TypeVar("T", bound="UpdateClientResponse200")


@_attrs_define
class UpdateClientResponse200:
    """
    Attributes:
        data (Client): A client: a buyer (API.md §17).
        message (Literal['Client updated successfully.']):
    """

    data: Client
    message: Literal["Client updated successfully."]

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

        message = cast(Literal["Client updated successfully."], d.pop("message"))
        if message != "Client updated successfully.":
            raise ValueError(f"message must match const 'Client updated successfully.', got '{message}'")

        update_client_response_200 = cls(
            data=data,
            message=message,
        )

        return update_client_response_200
