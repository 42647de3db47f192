from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="CloneInvoiceFilesBody")


@_attrs_define
class CloneInvoiceFilesBody:
    """
    Attributes:
        bill_clientid (str): A record id as decimal text.
        bill_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        bill_due_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        bill_projectid (Literal[''] | str | Unset): An existing project.
    """

    bill_clientid: str
    bill_date: datetime.date
    bill_due_date: datetime.date
    bill_projectid: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bill_clientid = self.bill_clientid

        bill_date = self.bill_date.isoformat()

        bill_due_date = self.bill_due_date.isoformat()

        bill_projectid: Literal[""] | str | Unset
        if isinstance(self.bill_projectid, Unset):
            bill_projectid = UNSET
        else:
            bill_projectid = self.bill_projectid

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bill_clientid": bill_clientid,
                "bill_date": bill_date,
                "bill_due_date": bill_due_date,
            }
        )
        if bill_projectid is not UNSET:
            field_dict["bill_projectid"] = bill_projectid

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("bill_clientid", (None, str(self.bill_clientid).encode(), "text/plain")))

        files.append(("bill_date", (None, self.bill_date.isoformat().encode(), "text/plain")))

        files.append(("bill_due_date", (None, self.bill_due_date.isoformat().encode(), "text/plain")))

        if not isinstance(self.bill_projectid, Unset):
            if isinstance(self.bill_projectid, str):
                files.append(("bill_projectid", (None, str(self.bill_projectid).encode(), "text/plain")))
            else:
                files.append(("bill_projectid", (None, self.bill_projectid, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bill_clientid = d.pop("bill_clientid")

        bill_date = datetime.date.fromisoformat(d.pop("bill_date"))

        bill_due_date = datetime.date.fromisoformat(d.pop("bill_due_date"))

        def _parse_bill_projectid(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_projectid_type_1 = cast(Literal[""], data)
            if bill_projectid_type_1 != "":
                raise ValueError(f"bill_projectid_type_1 must match const '', got '{bill_projectid_type_1}'")
            return bill_projectid_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_projectid = _parse_bill_projectid(d.pop("bill_projectid", UNSET))

        clone_invoice_files_body = cls(
            bill_clientid=bill_clientid,
            bill_date=bill_date,
            bill_due_date=bill_due_date,
            bill_projectid=bill_projectid,
        )

        clone_invoice_files_body.additional_properties = d
        return clone_invoice_files_body

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
