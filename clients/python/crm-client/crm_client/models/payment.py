from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.named import Named
    from ..models.payment_dates import PaymentDates


T = TypeVar("T", bound="Payment")


@_attrs_define
class Payment:
    """Money received against an invoice (API.md §14).

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        invoice_id (int): A record id: a positive 64-bit integer.
        client (Named): A linked record with its display name.
        amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's decimals
            (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
        currency (str): An ISO 4217 currency code (`EUR`).
        date (datetime.date): A calendar date, `YYYY-MM-DD`.
        method (None | str):
        transaction_id (None | str):
        notes (None | str):
        creator_id (int): A record id: a positive 64-bit integer.
        dates (PaymentDates):
    """

    id: int
    invoice_id: int
    client: Named
    amount: str
    currency: str
    date: datetime.date
    method: None | str
    transaction_id: None | str
    notes: None | str
    creator_id: int
    dates: PaymentDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        invoice_id = self.invoice_id

        client = self.client.to_dict()

        amount = self.amount

        currency = self.currency

        date = self.date.isoformat()

        method: None | str
        method = self.method

        transaction_id: None | str
        transaction_id = self.transaction_id

        notes: None | str
        notes = self.notes

        creator_id = self.creator_id

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "invoice_id": invoice_id,
                "client": client,
                "amount": amount,
                "currency": currency,
                "date": date,
                "method": method,
                "transaction_id": transaction_id,
                "notes": notes,
                "creator_id": creator_id,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.named import Named  # noqa: PLC0415
        from ..models.payment_dates import PaymentDates  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        invoice_id = d.pop("invoice_id")

        client = Named.from_dict(d.pop("client"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        date = datetime.date.fromisoformat(d.pop("date"))

        def _parse_method(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        method = _parse_method(d.pop("method"))

        def _parse_transaction_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        transaction_id = _parse_transaction_id(d.pop("transaction_id"))

        def _parse_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notes = _parse_notes(d.pop("notes"))

        creator_id = d.pop("creator_id")

        dates = PaymentDates.from_dict(d.pop("dates"))

        payment = cls(
            id=id,
            invoice_id=invoice_id,
            client=client,
            amount=amount,
            currency=currency,
            date=date,
            method=method,
            transaction_id=transaction_id,
            notes=notes,
            creator_id=creator_id,
            dates=dates,
        )

        return payment
