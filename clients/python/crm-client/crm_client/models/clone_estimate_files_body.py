from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="CloneEstimateFilesBody")


@_attrs_define
class CloneEstimateFilesBody:
    """
    Attributes:
        bill_clientid (str): A record id as decimal text.
        bill_categoryid (str): A record id as decimal text.
        bill_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        bill_expiry_date (datetime.date | Literal[''] | Unset): Expiry date: on or after `bill_date`.
        bill_projectid (Literal[''] | str | Unset): An existing project.
    """

    bill_clientid: str
    bill_categoryid: str
    bill_date: datetime.date
    bill_expiry_date: datetime.date | Literal[""] | Unset = UNSET
    bill_projectid: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bill_clientid = self.bill_clientid

        bill_categoryid = self.bill_categoryid

        bill_date = self.bill_date.isoformat()

        bill_expiry_date: Literal[""] | str | Unset
        if isinstance(self.bill_expiry_date, Unset):
            bill_expiry_date = UNSET
        elif isinstance(self.bill_expiry_date, datetime.date):
            bill_expiry_date = self.bill_expiry_date.isoformat()
        else:
            bill_expiry_date = self.bill_expiry_date

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
                "bill_categoryid": bill_categoryid,
                "bill_date": bill_date,
            }
        )
        if bill_expiry_date is not UNSET:
            field_dict["bill_expiry_date"] = bill_expiry_date
        if bill_projectid is not UNSET:
            field_dict["bill_projectid"] = bill_projectid

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("bill_clientid", (None, str(self.bill_clientid).encode(), "text/plain")))

        files.append(("bill_categoryid", (None, str(self.bill_categoryid).encode(), "text/plain")))

        files.append(("bill_date", (None, self.bill_date.isoformat().encode(), "text/plain")))

        if not isinstance(self.bill_expiry_date, Unset):
            if isinstance(self.bill_expiry_date, datetime.date):
                files.append(("bill_expiry_date", (None, self.bill_expiry_date.isoformat().encode(), "text/plain")))
            else:
                files.append(("bill_expiry_date", (None, self.bill_expiry_date, "text/plain")))

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

        bill_categoryid = d.pop("bill_categoryid")

        bill_date = datetime.date.fromisoformat(d.pop("bill_date"))

        def _parse_bill_expiry_date(data: object) -> datetime.date | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_expiry_date_type_0 = datetime.date.fromisoformat(data)

                return bill_expiry_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            bill_expiry_date_type_1 = cast(Literal[""], data)
            if bill_expiry_date_type_1 != "":
                raise ValueError(f"bill_expiry_date_type_1 must match const '', got '{bill_expiry_date_type_1}'")
            return bill_expiry_date_type_1

        bill_expiry_date = _parse_bill_expiry_date(d.pop("bill_expiry_date", UNSET))

        def _parse_bill_projectid(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_projectid_type_1 = cast(Literal[""], data)
            if bill_projectid_type_1 != "":
                raise ValueError(f"bill_projectid_type_1 must match const '', got '{bill_projectid_type_1}'")
            return bill_projectid_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_projectid = _parse_bill_projectid(d.pop("bill_projectid", UNSET))

        clone_estimate_files_body = cls(
            bill_clientid=bill_clientid,
            bill_categoryid=bill_categoryid,
            bill_date=bill_date,
            bill_expiry_date=bill_expiry_date,
            bill_projectid=bill_projectid,
        )

        clone_estimate_files_body.additional_properties = d
        return clone_estimate_files_body

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
