from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecordPaymentJsonBody")


@_attrs_define
class RecordPaymentJsonBody:
    """
    Attributes:
        payment_invoiceid (int | str): A record id: a positive integer, as a JSON number (an integral value such as
            `1.0` counts) or as decimal text.
        payment_amount (float | str): A payment's amount: greater than zero, at most the invoice currency's decimals,
            below 10^13, as a JSON number or as text.
        payment_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        payment_method (Literal[''] | None | str | Unset): How it was paid (bank transfer, card, …): at most 100
            characters, one line.
        payment_transaction_id (Literal[''] | None | str | Unset): The bank's or processor's reference: at most 250
            characters, one line.
        payment_notes (Literal[''] | None | str | Unset): Notes (at most 65,535 characters).
    """

    payment_invoiceid: int | str
    payment_amount: float | str
    payment_date: datetime.date
    payment_method: Literal[""] | None | str | Unset = UNSET
    payment_transaction_id: Literal[""] | None | str | Unset = UNSET
    payment_notes: Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        payment_invoiceid: int | str
        payment_invoiceid = self.payment_invoiceid

        payment_amount: float | str
        payment_amount = self.payment_amount

        payment_date = self.payment_date.isoformat()

        payment_method: Literal[""] | None | str | Unset
        if isinstance(self.payment_method, Unset):
            payment_method = UNSET
        else:
            payment_method = self.payment_method

        payment_transaction_id: Literal[""] | None | str | Unset
        if isinstance(self.payment_transaction_id, Unset):
            payment_transaction_id = UNSET
        else:
            payment_transaction_id = self.payment_transaction_id

        payment_notes: Literal[""] | None | str | Unset
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

        def _parse_payment_invoiceid(data: object) -> int | str:
            return cast(int | str, data)

        payment_invoiceid = _parse_payment_invoiceid(d.pop("payment_invoiceid"))

        def _parse_payment_amount(data: object) -> float | str:
            return cast(float | str, data)

        payment_amount = _parse_payment_amount(d.pop("payment_amount"))

        payment_date = datetime.date.fromisoformat(d.pop("payment_date"))

        def _parse_payment_method(data: object) -> Literal[""] | None | str | Unset:
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
            return cast(Literal[""] | None | str | Unset, data)

        payment_method = _parse_payment_method(d.pop("payment_method", UNSET))

        def _parse_payment_transaction_id(data: object) -> Literal[""] | None | str | Unset:
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
            return cast(Literal[""] | None | str | Unset, data)

        payment_transaction_id = _parse_payment_transaction_id(d.pop("payment_transaction_id", UNSET))

        def _parse_payment_notes(data: object) -> Literal[""] | None | str | Unset:
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
            return cast(Literal[""] | None | str | Unset, data)

        payment_notes = _parse_payment_notes(d.pop("payment_notes", UNSET))

        record_payment_json_body = cls(
            payment_invoiceid=payment_invoiceid,
            payment_amount=payment_amount,
            payment_date=payment_date,
            payment_method=payment_method,
            payment_transaction_id=payment_transaction_id,
            payment_notes=payment_notes,
        )

        record_payment_json_body.additional_properties = d
        return record_payment_json_body

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
