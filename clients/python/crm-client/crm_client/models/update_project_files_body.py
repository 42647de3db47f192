from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.update_project_files_body_status_type_0 import UpdateProjectFilesBodyStatusType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateProjectFilesBody")


@_attrs_define
class UpdateProjectFilesBody:
    """
    Attributes:
        title (Literal[''] | str | Unset): Title (cannot be cleared).
        client_id (Literal[''] | str | Unset): An existing client (cannot be cleared).
        category_id (Literal[''] | str | Unset): A project category (default: the system-default one); cannot be
            cleared.
        status (Literal[''] | Unset | UpdateProjectFilesBodyStatusType0): Default `not_started`; cannot be cleared.
        start_date (datetime.date | Literal[''] | Unset): When it starts.
        due_date (datetime.date | Literal[''] | Unset): When it is due: on or after the start date.
    """

    title: Literal[""] | str | Unset = UNSET
    client_id: Literal[""] | str | Unset = UNSET
    category_id: Literal[""] | str | Unset = UNSET
    status: Literal[""] | Unset | UpdateProjectFilesBodyStatusType0 = UNSET
    start_date: datetime.date | Literal[""] | Unset = UNSET
    due_date: datetime.date | Literal[""] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        title: Literal[""] | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        client_id: Literal[""] | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        category_id: Literal[""] | str | Unset
        if isinstance(self.category_id, Unset):
            category_id = UNSET
        else:
            category_id = self.category_id

        status: Literal[""] | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, UpdateProjectFilesBodyStatusType0):
            status = self.status.value
        else:
            status = self.status

        start_date: Literal[""] | str | Unset
        if isinstance(self.start_date, Unset):
            start_date = UNSET
        elif isinstance(self.start_date, datetime.date):
            start_date = self.start_date.isoformat()
        else:
            start_date = self.start_date

        due_date: Literal[""] | str | Unset
        if isinstance(self.due_date, Unset):
            due_date = UNSET
        elif isinstance(self.due_date, datetime.date):
            due_date = self.due_date.isoformat()
        else:
            due_date = self.due_date

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if title is not UNSET:
            field_dict["title"] = title
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if category_id is not UNSET:
            field_dict["category_id"] = category_id
        if status is not UNSET:
            field_dict["status"] = status
        if start_date is not UNSET:
            field_dict["start_date"] = start_date
        if due_date is not UNSET:
            field_dict["due_date"] = due_date

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.title, Unset):
            if isinstance(self.title, str):
                files.append(("title", (None, str(self.title).encode(), "text/plain")))
            else:
                files.append(("title", (None, self.title, "text/plain")))

        if not isinstance(self.client_id, Unset):
            if isinstance(self.client_id, str):
                files.append(("client_id", (None, str(self.client_id).encode(), "text/plain")))
            else:
                files.append(("client_id", (None, self.client_id, "text/plain")))

        if not isinstance(self.category_id, Unset):
            if isinstance(self.category_id, str):
                files.append(("category_id", (None, str(self.category_id).encode(), "text/plain")))
            else:
                files.append(("category_id", (None, self.category_id, "text/plain")))

        if not isinstance(self.status, Unset):
            if isinstance(self.status, UpdateProjectFilesBodyStatusType0):
                files.append(("status", (None, str(self.status.value).encode(), "text/plain")))
            else:
                files.append(("status", (None, self.status, "text/plain")))

        if not isinstance(self.start_date, Unset):
            if isinstance(self.start_date, datetime.date):
                files.append(("start_date", (None, self.start_date.isoformat().encode(), "text/plain")))
            else:
                files.append(("start_date", (None, self.start_date, "text/plain")))

        if not isinstance(self.due_date, Unset):
            if isinstance(self.due_date, datetime.date):
                files.append(("due_date", (None, self.due_date.isoformat().encode(), "text/plain")))
            else:
                files.append(("due_date", (None, self.due_date, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_title(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            title_type_1 = cast(Literal[""], data)
            if title_type_1 != "":
                raise ValueError(f"title_type_1 must match const '', got '{title_type_1}'")
            return title_type_1
            return cast(Literal[""] | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_client_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            client_id_type_1 = cast(Literal[""], data)
            if client_id_type_1 != "":
                raise ValueError(f"client_id_type_1 must match const '', got '{client_id_type_1}'")
            return client_id_type_1
            return cast(Literal[""] | str | Unset, data)

        client_id = _parse_client_id(d.pop("client_id", UNSET))

        def _parse_category_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            category_id_type_1 = cast(Literal[""], data)
            if category_id_type_1 != "":
                raise ValueError(f"category_id_type_1 must match const '', got '{category_id_type_1}'")
            return category_id_type_1
            return cast(Literal[""] | str | Unset, data)

        category_id = _parse_category_id(d.pop("category_id", UNSET))

        def _parse_status(data: object) -> Literal[""] | Unset | UpdateProjectFilesBodyStatusType0:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = UpdateProjectFilesBodyStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            status_type_1 = cast(Literal[""], data)
            if status_type_1 != "":
                raise ValueError(f"status_type_1 must match const '', got '{status_type_1}'")
            return status_type_1

        status = _parse_status(d.pop("status", UNSET))

        def _parse_start_date(data: object) -> datetime.date | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_date_type_0 = datetime.date.fromisoformat(data)

                return start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            start_date_type_1 = cast(Literal[""], data)
            if start_date_type_1 != "":
                raise ValueError(f"start_date_type_1 must match const '', got '{start_date_type_1}'")
            return start_date_type_1

        start_date = _parse_start_date(d.pop("start_date", UNSET))

        def _parse_due_date(data: object) -> datetime.date | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_type_0 = datetime.date.fromisoformat(data)

                return due_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            due_date_type_1 = cast(Literal[""], data)
            if due_date_type_1 != "":
                raise ValueError(f"due_date_type_1 must match const '', got '{due_date_type_1}'")
            return due_date_type_1

        due_date = _parse_due_date(d.pop("due_date", UNSET))

        update_project_files_body = cls(
            title=title,
            client_id=client_id,
            category_id=category_id,
            status=status,
            start_date=start_date,
            due_date=due_date,
        )

        update_project_files_body.additional_properties = d
        return update_project_files_body

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
