from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ActivityActorType0")


@_attrs_define
class ActivityActorType0:
    """
    Attributes:
        user_id (int | None):
        key_id (int): A record id: a positive 64-bit integer.
        key_name (None | str):
    """

    user_id: int | None
    key_id: int
    key_name: None | str

    def to_dict(self) -> dict[str, Any]:
        user_id: int | None
        user_id = self.user_id

        key_id = self.key_id

        key_name: None | str
        key_name = self.key_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "key_id": key_id,
                "key_name": key_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_user_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        user_id = _parse_user_id(d.pop("user_id"))

        key_id = d.pop("key_id")

        def _parse_key_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key_name = _parse_key_name(d.pop("key_name"))

        activity_actor_type_0 = cls(
            user_id=user_id,
            key_id=key_id,
            key_name=key_name,
        )

        return activity_actor_type_0
