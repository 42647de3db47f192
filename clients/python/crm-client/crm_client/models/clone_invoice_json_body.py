from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CloneInvoiceJsonBody")


@_attrs_define
class CloneInvoiceJsonBody:
    """
    Attributes:
        bill_clientid (int | str): A record id: a positive integer, as a JSON number (an integral value such as `1.0`
            counts) or as decimal text.
        bill_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        bill_due_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        bill_projectid (int | Literal[''] | None | str | Unset): An existing project.
    """

    bill_clientid: int | str
    bill_date: datetime.date
    bill_due_date: datetime.date
    bill_projectid: int | Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bill_clientid: int | str
        bill_clientid = self.bill_clientid

        bill_date = self.bill_date.isoformat()

        bill_due_date = self.bill_due_date.isoformat()

        bill_projectid: int | Literal[""] | None | str | Unset
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

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_bill_clientid(data: object) -> int | str:
            return cast(int | str, data)

        bill_clientid = _parse_bill_clientid(d.pop("bill_clientid"))

        bill_date = datetime.date.fromisoformat(d.pop("bill_date"))

        bill_due_date = datetime.date.fromisoformat(d.pop("bill_due_date"))

        def _parse_bill_projectid(data: object) -> int | Literal[""] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(int | Literal[""] | None | str | Unset, data)

        bill_projectid = _parse_bill_projectid(d.pop("bill_projectid", UNSET))

        clone_invoice_json_body = cls(
            bill_clientid=bill_clientid,
            bill_date=bill_date,
            bill_due_date=bill_due_date,
            bill_projectid=bill_projectid,
        )

        clone_invoice_json_body.additional_properties = d
        return clone_invoice_json_body

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
