from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="CloneContractFilesBody")


@_attrs_define
class CloneContractFilesBody:
    """
    Attributes:
        doc_title (str): Text of at most 250 characters once trimmed and normalised to NFC, no HTML tags, one line: no
            line breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation selectors and
            tags only inside emoji and script sequences); not blank.
        doc_client_id (str): A record id as decimal text.
        doc_categoryid (str): A record id as decimal text.
        doc_date_start (datetime.date): A calendar date, `YYYY-MM-DD`.
        doc_date_end (datetime.date | Literal[''] | Unset): End date: on or after the start date.
        doc_project_id (Literal[''] | str | Unset): An existing project.
        doc_value (Literal[''] | str | Unset): Value; the source's value when absent.
    """

    doc_title: str
    doc_client_id: str
    doc_categoryid: str
    doc_date_start: datetime.date
    doc_date_end: datetime.date | Literal[""] | Unset = UNSET
    doc_project_id: Literal[""] | str | Unset = UNSET
    doc_value: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        doc_title = self.doc_title

        doc_client_id = self.doc_client_id

        doc_categoryid = self.doc_categoryid

        doc_date_start = self.doc_date_start.isoformat()

        doc_date_end: Literal[""] | str | Unset
        if isinstance(self.doc_date_end, Unset):
            doc_date_end = UNSET
        elif isinstance(self.doc_date_end, datetime.date):
            doc_date_end = self.doc_date_end.isoformat()
        else:
            doc_date_end = self.doc_date_end

        doc_project_id: Literal[""] | str | Unset
        if isinstance(self.doc_project_id, Unset):
            doc_project_id = UNSET
        else:
            doc_project_id = self.doc_project_id

        doc_value: Literal[""] | str | Unset
        if isinstance(self.doc_value, Unset):
            doc_value = UNSET
        else:
            doc_value = self.doc_value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "doc_title": doc_title,
                "doc_client_id": doc_client_id,
                "doc_categoryid": doc_categoryid,
                "doc_date_start": doc_date_start,
            }
        )
        if doc_date_end is not UNSET:
            field_dict["doc_date_end"] = doc_date_end
        if doc_project_id is not UNSET:
            field_dict["doc_project_id"] = doc_project_id
        if doc_value is not UNSET:
            field_dict["doc_value"] = doc_value

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("doc_title", (None, str(self.doc_title).encode(), "text/plain")))

        files.append(("doc_client_id", (None, str(self.doc_client_id).encode(), "text/plain")))

        files.append(("doc_categoryid", (None, str(self.doc_categoryid).encode(), "text/plain")))

        files.append(("doc_date_start", (None, self.doc_date_start.isoformat().encode(), "text/plain")))

        if not isinstance(self.doc_date_end, Unset):
            if isinstance(self.doc_date_end, datetime.date):
                files.append(("doc_date_end", (None, self.doc_date_end.isoformat().encode(), "text/plain")))
            else:
                files.append(("doc_date_end", (None, self.doc_date_end, "text/plain")))

        if not isinstance(self.doc_project_id, Unset):
            if isinstance(self.doc_project_id, str):
                files.append(("doc_project_id", (None, str(self.doc_project_id).encode(), "text/plain")))
            else:
                files.append(("doc_project_id", (None, self.doc_project_id, "text/plain")))

        if not isinstance(self.doc_value, Unset):
            if isinstance(self.doc_value, str):
                files.append(("doc_value", (None, str(self.doc_value).encode(), "text/plain")))
            else:
                files.append(("doc_value", (None, self.doc_value, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        doc_title = d.pop("doc_title")

        doc_client_id = d.pop("doc_client_id")

        doc_categoryid = d.pop("doc_categoryid")

        doc_date_start = datetime.date.fromisoformat(d.pop("doc_date_start"))

        def _parse_doc_date_end(data: object) -> datetime.date | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                doc_date_end_type_0 = datetime.date.fromisoformat(data)

                return doc_date_end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            doc_date_end_type_1 = cast(Literal[""], data)
            if doc_date_end_type_1 != "":
                raise ValueError(f"doc_date_end_type_1 must match const '', got '{doc_date_end_type_1}'")
            return doc_date_end_type_1

        doc_date_end = _parse_doc_date_end(d.pop("doc_date_end", UNSET))

        def _parse_doc_project_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            doc_project_id_type_1 = cast(Literal[""], data)
            if doc_project_id_type_1 != "":
                raise ValueError(f"doc_project_id_type_1 must match const '', got '{doc_project_id_type_1}'")
            return doc_project_id_type_1
            return cast(Literal[""] | str | Unset, data)

        doc_project_id = _parse_doc_project_id(d.pop("doc_project_id", UNSET))

        def _parse_doc_value(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            doc_value_type_1 = cast(Literal[""], data)
            if doc_value_type_1 != "":
                raise ValueError(f"doc_value_type_1 must match const '', got '{doc_value_type_1}'")
            return doc_value_type_1
            return cast(Literal[""] | str | Unset, data)

        doc_value = _parse_doc_value(d.pop("doc_value", UNSET))

        clone_contract_files_body = cls(
            doc_title=doc_title,
            doc_client_id=doc_client_id,
            doc_categoryid=doc_categoryid,
            doc_date_start=doc_date_start,
            doc_date_end=doc_date_end,
            doc_project_id=doc_project_id,
            doc_value=doc_value,
        )

        clone_contract_files_body.additional_properties = d
        return clone_contract_files_body

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
