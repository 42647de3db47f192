from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.activity_resource import ActivityResource


T = TypeVar("T", bound="ActivityActorType1")


@_attrs_define
class ActivityActorType1:
    """
    Attributes:
        client_link (ActivityResource): A record: its resource type and id.
    """

    client_link: ActivityResource

    def to_dict(self) -> dict[str, Any]:
        client_link = self.client_link.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "client_link": client_link,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_resource import ActivityResource  # noqa: PLC0415

        d = dict(src_dict)
        client_link = ActivityResource.from_dict(d.pop("client_link"))

        activity_actor_type_1 = cls(
            client_link=client_link,
        )

        return activity_actor_type_1
