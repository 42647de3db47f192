from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateContractDataBody")


@_attrs_define
class UpdateContractDataBody:
    """
    Attributes:
        doc_title (str): Text of at most 250 characters once trimmed and normalised to NFC, no HTML tags, one line: no
            line breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation selectors and
            tags only inside emoji and script sequences); not blank.
        doc_date_start (datetime.date): A calendar date, `YYYY-MM-DD`.
        doc_categoryid (str): A record id as decimal text.
        doc_date_end (datetime.date | Literal[''] | Unset): End date (on or after the start); absent is kept, sent empty
            is cleared.
        doc_value (Literal[''] | str | Unset): Value; absent is kept, sent empty is cleared.
        doc_body (Literal[''] | str | Unset): Contract content (HTML); absent is kept, sent empty is cleared.
    """

    doc_title: str
    doc_date_start: datetime.date
    doc_categoryid: str
    doc_date_end: datetime.date | Literal[""] | Unset = UNSET
    doc_value: Literal[""] | str | Unset = UNSET
    doc_body: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        doc_title = self.doc_title

        doc_date_start = self.doc_date_start.isoformat()

        doc_categoryid = self.doc_categoryid

        doc_date_end: Literal[""] | str | Unset
        if isinstance(self.doc_date_end, Unset):
            doc_date_end = UNSET
        elif isinstance(self.doc_date_end, datetime.date):
            doc_date_end = self.doc_date_end.isoformat()
        else:
            doc_date_end = self.doc_date_end

        doc_value: Literal[""] | str | Unset
        if isinstance(self.doc_value, Unset):
            doc_value = UNSET
        else:
            doc_value = self.doc_value

        doc_body: Literal[""] | str | Unset
        if isinstance(self.doc_body, Unset):
            doc_body = UNSET
        else:
            doc_body = self.doc_body

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "doc_title": doc_title,
                "doc_date_start": doc_date_start,
                "doc_categoryid": doc_categoryid,
            }
        )
        if doc_date_end is not UNSET:
            field_dict["doc_date_end"] = doc_date_end
        if doc_value is not UNSET:
            field_dict["doc_value"] = doc_value
        if doc_body is not UNSET:
            field_dict["doc_body"] = doc_body

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        doc_title = d.pop("doc_title")

        doc_date_start = datetime.date.fromisoformat(d.pop("doc_date_start"))

        doc_categoryid = d.pop("doc_categoryid")

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

        def _parse_doc_value(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            doc_value_type_1 = cast(Literal[""], data)
            if doc_value_type_1 != "":
                raise ValueError(f"doc_value_type_1 must match const '', got '{doc_value_type_1}'")
            return doc_value_type_1
            return cast(Literal[""] | str | Unset, data)

        doc_value = _parse_doc_value(d.pop("doc_value", UNSET))

        def _parse_doc_body(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            doc_body_type_1 = cast(Literal[""], data)
            if doc_body_type_1 != "":
                raise ValueError(f"doc_body_type_1 must match const '', got '{doc_body_type_1}'")
            return doc_body_type_1
            return cast(Literal[""] | str | Unset, data)

        doc_body = _parse_doc_body(d.pop("doc_body", UNSET))

        update_contract_data_body = cls(
            doc_title=doc_title,
            doc_date_start=doc_date_start,
            doc_categoryid=doc_categoryid,
            doc_date_end=doc_date_end,
            doc_value=doc_value,
            doc_body=doc_body,
        )

        update_contract_data_body.additional_properties = d
        return update_contract_data_body

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
