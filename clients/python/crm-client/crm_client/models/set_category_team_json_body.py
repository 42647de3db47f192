from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SetCategoryTeamJsonBody")


@_attrs_define
class SetCategoryTeamJsonBody:
    """
    Attributes:
        users (list[int | Literal[''] | None | str] | None): The full set of team user ids (each must be a team member;
            duplicates ignored); `[]` (or `null`, or only empty elements) clears.
    """

    users: list[int | Literal[""] | None | str] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        users: list[int | Literal[""] | None | str] | None
        if isinstance(self.users, list):
            users = []
            for users_type_0_item_data in self.users:
                users_type_0_item: int | Literal[""] | None | str
                users_type_0_item = users_type_0_item_data
                users.append(users_type_0_item)

        else:
            users = self.users

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "users": users,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_users(data: object) -> list[int | Literal[""] | None | str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                users_type_0 = []
                _users_type_0 = data
                for users_type_0_item_data in _users_type_0:

                    def _parse_users_type_0_item(data: object) -> int | Literal[""] | None | str:
                        if data is None:
                            return data
                        componentsschemas_blank_type_1 = cast(Literal[""], data)
                        if componentsschemas_blank_type_1 != "":
                            raise ValueError(
                                f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                            )
                        return componentsschemas_blank_type_1
                        return cast(int | Literal[""] | None | str, data)

                    users_type_0_item = _parse_users_type_0_item(users_type_0_item_data)

                    users_type_0.append(users_type_0_item)

                return users_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int | Literal[""] | None | str] | None, data)

        users = _parse_users(d.pop("users"))

        set_category_team_json_body = cls(
            users=users,
        )

        set_category_team_json_body.additional_properties = d
        return set_category_team_json_body

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
