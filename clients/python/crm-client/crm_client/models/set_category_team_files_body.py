from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="SetCategoryTeamFilesBody")


@_attrs_define
class SetCategoryTeamFilesBody:
    """
    Attributes:
        users (list[Literal[''] | str] | Unset): `users[]=5&users[]=8`. Send `users[]=` (or `users=`) with an empty
            value to clear the team.
    """

    users: list[Literal[""] | str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        users: list[Literal[""] | str] | Unset = UNSET
        if not isinstance(self.users, Unset):
            users = []
            for users_item_data in self.users:
                users_item: Literal[""] | str
                users_item = users_item_data
                users.append(users_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if users is not UNSET:
            field_dict["users[]"] = users

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.users, Unset):
            for users_item_element in self.users:
                if isinstance(users_item_element, str):
                    files.append(("users[]", (None, str(users_item_element).encode(), "text/plain")))
                else:
                    files.append(("users[]", (None, users_item_element, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _users = d.pop("users[]", UNSET)
        users: list[Literal[""] | str] | Unset = UNSET
        if _users is not UNSET:
            users = []
            for users_item_data in _users:

                def _parse_users_item(data: object) -> Literal[""] | str:
                    users_item_type_1 = cast(Literal[""], data)
                    if users_item_type_1 != "":
                        raise ValueError(f"users[]_item_type_1 must match const '', got '{users_item_type_1}'")
                    return users_item_type_1
                    return cast(Literal[""] | str, data)

                users_item = _parse_users_item(users_item_data)

                users.append(users_item)

        set_category_team_files_body = cls(
            users=users,
        )

        set_category_team_files_body.additional_properties = d
        return set_category_team_files_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
