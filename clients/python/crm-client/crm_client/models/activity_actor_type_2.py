from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.activity_actor_type_2_system import ActivityActorType2System

T = TypeVar("T", bound="ActivityActorType2")


@_attrs_define
class ActivityActorType2:
    """
    Attributes:
        system (ActivityActorType2System):
    """

    system: ActivityActorType2System

    def to_dict(self) -> dict[str, Any]:
        system = self.system.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "system": system,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        system = ActivityActorType2System(d.pop("system"))

        activity_actor_type_2 = cls(
            system=system,
        )

        return activity_actor_type_2
