from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.email import Email


T = TypeVar("T", bound="GetEmailResponse200")


@_attrs_define
class GetEmailResponse200:
    """
    Attributes:
        data (Email): A queued email (the message body is not returned).
        message (Literal['Email retrieved successfully.']):
    """

    data: Email
    message: Literal["Email retrieved successfully."]

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
        from ..models.email import Email  # noqa: PLC0415

        d = dict(src_dict)
        data = Email.from_dict(d.pop("data"))

        message = cast(Literal["Email retrieved successfully."], d.pop("message"))
        if message != "Email retrieved successfully.":
            raise ValueError(f"message must match const 'Email retrieved successfully.', got '{message}'")

        get_email_response_200 = cls(
            data=data,
            message=message,
        )

        return get_email_response_200
