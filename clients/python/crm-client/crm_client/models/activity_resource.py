from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.activity_resource_type import ActivityResourceType

T = TypeVar("T", bound="ActivityResource")


@_attrs_define
class ActivityResource:
    """A record: its resource type and id.

    Attributes:
        type_ (ActivityResourceType):
        id (int): A record id: a positive 64-bit integer.
    """

    type_: ActivityResourceType
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
        type_ = ActivityResourceType(d.pop("type"))

        id = d.pop("id")

        activity_resource = cls(
            type_=type_,
            id=id,
        )

        return activity_resource
