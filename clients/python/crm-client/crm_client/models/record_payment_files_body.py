from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="RecordPaymentFilesBody")


@_attrs_define
class RecordPaymentFilesBody:
    """
    Attributes:
        payment_invoiceid (str): A record id as decimal text.
        payment_amount (str): A positive amount of an invoice as decimal text.
        payment_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        payment_method (Literal[''] | str | Unset): How it was paid (bank transfer, card, …): at most 100 characters,
            one line.
        payment_transaction_id (Literal[''] | str | Unset): The bank's or processor's reference: at most 250 characters,
            one line.
        payment_notes (Literal[''] | str | Unset): Notes (at most 65,535 characters).
    """

    payment_invoiceid: str
    payment_amount: str
    payment_date: datetime.date
    payment_method: Literal[""] | str | Unset = UNSET
    payment_transaction_id: Literal[""] | str | Unset = UNSET
    payment_notes: Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        payment_invoiceid = self.payment_invoiceid

        payment_amount = self.payment_amount

        payment_date = self.payment_date.isoformat()

        payment_method: Literal[""] | str | Unset
        if isinstance(self.payment_method, Unset):
            payment_method = UNSET
        else:
            payment_method = self.payment_method

        payment_transaction_id: Literal[""] | str | Unset
        if isinstance(self.payment_transaction_id, Unset):
            payment_transaction_id = UNSET
        else:
            payment_transaction_id = self.payment_transaction_id

        payment_notes: Literal[""] | str | Unset
        if isinstance(self.payment_notes, Unset):
            payment_notes = UNSET
        else:
            payment_notes = self.payment_notes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "payment_invoiceid": payment_invoiceid,
                "payment_amount": payment_amount,
                "payment_date": payment_date,
            }
        )
        if payment_method is not UNSET:
            field_dict["payment_method"] = payment_method
        if payment_transaction_id is not UNSET:
            field_dict["payment_transaction_id"] = payment_transaction_id
        if payment_notes is not UNSET:
            field_dict["payment_notes"] = payment_notes

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("payment_invoiceid", (None, str(self.payment_invoiceid).encode(), "text/plain")))

        files.append(("payment_amount", (None, str(self.payment_amount).encode(), "text/plain")))

        files.append(("payment_date", (None, self.payment_date.isoformat().encode(), "text/plain")))

        if not isinstance(self.payment_method, Unset):
            if isinstance(self.payment_method, str):
                files.append(("payment_method", (None, str(self.payment_method).encode(), "text/plain")))
            else:
                files.append(("payment_method", (None, self.payment_method, "text/plain")))

        if not isinstance(self.payment_transaction_id, Unset):
            if isinstance(self.payment_transaction_id, str):
                files.append(
                    ("payment_transaction_id", (None, str(self.payment_transaction_id).encode(), "text/plain"))
                )
            else:
                files.append(("payment_transaction_id", (None, self.payment_transaction_id, "text/plain")))

        if not isinstance(self.payment_notes, Unset):
            if isinstance(self.payment_notes, str):
                files.append(("payment_notes", (None, str(self.payment_notes).encode(), "text/plain")))
            else:
                files.append(("payment_notes", (None, self.payment_notes, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        payment_invoiceid = d.pop("payment_invoiceid")

        payment_amount = d.pop("payment_amount")

        payment_date = datetime.date.fromisoformat(d.pop("payment_date"))

        def _parse_payment_method(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            payment_method_type_1 = cast(Literal[""], data)
            if payment_method_type_1 != "":
                raise ValueError(f"payment_method_type_1 must match const '', got '{payment_method_type_1}'")
            return payment_method_type_1
            return cast(Literal[""] | str | Unset, data)

        payment_method = _parse_payment_method(d.pop("payment_method", UNSET))

        def _parse_payment_transaction_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            payment_transaction_id_type_1 = cast(Literal[""], data)
            if payment_transaction_id_type_1 != "":
                raise ValueError(
                    f"payment_transaction_id_type_1 must match const '', got '{payment_transaction_id_type_1}'"
                )
            return payment_transaction_id_type_1
            return cast(Literal[""] | str | Unset, data)

        payment_transaction_id = _parse_payment_transaction_id(d.pop("payment_transaction_id", UNSET))

        def _parse_payment_notes(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            payment_notes_type_1 = cast(Literal[""], data)
            if payment_notes_type_1 != "":
                raise ValueError(f"payment_notes_type_1 must match const '', got '{payment_notes_type_1}'")
            return payment_notes_type_1
            return cast(Literal[""] | str | Unset, data)

        payment_notes = _parse_payment_notes(d.pop("payment_notes", UNSET))

        record_payment_files_body = cls(
            payment_invoiceid=payment_invoiceid,
            payment_amount=payment_amount,
            payment_date=payment_date,
            payment_method=payment_method,
            payment_transaction_id=payment_transaction_id,
            payment_notes=payment_notes,
        )

        record_payment_files_body.additional_properties = d
        return record_payment_files_body

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
