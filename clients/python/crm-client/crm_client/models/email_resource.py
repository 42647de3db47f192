from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.email_resource_type import EmailResourceType

T = TypeVar("T", bound="EmailResource")


@_attrs_define
class EmailResource:
    """
    Attributes:
        type_ (EmailResourceType):
        id (int): A record id: a positive 64-bit integer.
    """

    type_: EmailResourceType
    id: int

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

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
        type_ = EmailResourceType(d.pop("type"))

        id = d.pop("id")

        email_resource = cls(
            type_=type_,
            id=id,
        )

        return email_resource
