from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateMeFilesBody")


@_attrs_define
class UpdateMeFilesBody:
    """
    Attributes:
        first_name (Literal[''] | str | Unset): First name.
        last_name (Literal[''] | str | Unset): Last name.
        email (Literal[''] | str | Unset): Where notices go (unique, ignoring case).
    """

    first_name: Literal[""] | str | Unset = UNSET
    last_name: Literal[""] | str | Unset = UNSET
    email: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        first_name: Literal[""] | str | Unset
        if isinstance(self.first_name, Unset):
            first_name = UNSET
        else:
            first_name = self.first_name

        last_name: Literal[""] | str | Unset
        if isinstance(self.last_name, Unset):
            last_name = UNSET
        else:
            last_name = self.last_name

        email: Literal[""] | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if first_name is not UNSET:
            field_dict["first_name"] = first_name
        if last_name is not UNSET:
            field_dict["last_name"] = last_name
        if email is not UNSET:
            field_dict["email"] = email

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.first_name, Unset):
            if isinstance(self.first_name, str):
                files.append(("first_name", (None, str(self.first_name).encode(), "text/plain")))
            else:
                files.append(("first_name", (None, self.first_name, "text/plain")))

        if not isinstance(self.last_name, Unset):
            if isinstance(self.last_name, str):
                files.append(("last_name", (None, str(self.last_name).encode(), "text/plain")))
            else:
                files.append(("last_name", (None, self.last_name, "text/plain")))

        if not isinstance(self.email, Unset):
            if isinstance(self.email, str):
                files.append(("email", (None, str(self.email).encode(), "text/plain")))
            else:
                files.append(("email", (None, self.email, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_first_name(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            first_name_type_1 = cast(Literal[""], data)
            if first_name_type_1 != "":
                raise ValueError(f"first_name_type_1 must match const '', got '{first_name_type_1}'")
            return first_name_type_1
            return cast(Literal[""] | str | Unset, data)

        first_name = _parse_first_name(d.pop("first_name", UNSET))

        def _parse_last_name(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            last_name_type_1 = cast(Literal[""], data)
            if last_name_type_1 != "":
                raise ValueError(f"last_name_type_1 must match const '', got '{last_name_type_1}'")
            return last_name_type_1
            return cast(Literal[""] | str | Unset, data)

        last_name = _parse_last_name(d.pop("last_name", UNSET))

        def _parse_email(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            email_type_1 = cast(Literal[""], data)
            if email_type_1 != "":
                raise ValueError(f"email_type_1 must match const '', got '{email_type_1}'")
            return email_type_1
            return cast(Literal[""] | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        update_me_files_body = cls(
            first_name=first_name,
            last_name=last_name,
            email=email,
        )

        update_me_files_body.additional_properties = d
        return update_me_files_body

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
