from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecordPaymentDataBody")


@_attrs_define
class RecordPaymentDataBody:
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

        record_payment_data_body = cls(
            payment_invoiceid=payment_invoiceid,
            payment_amount=payment_amount,
            payment_date=payment_date,
            payment_method=payment_method,
            payment_transaction_id=payment_transaction_id,
            payment_notes=payment_notes,
        )

        record_payment_data_body.additional_properties = d
        return record_payment_data_body

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
