from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_invoice_json_body_bill_tax_type_type_0 import CreateInvoiceJsonBodyBillTaxTypeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateInvoiceJsonBody")


@_attrs_define
class CreateInvoiceJsonBody:
    """
    Attributes:
        bill_clientid (int | str): A record id: a positive integer, as a JSON number (an integral value such as `1.0`
            counts) or as decimal text.
        bill_categoryid (int | str): A record id: a positive integer, as a JSON number (an integral value such as `1.0`
            counts) or as decimal text.
        bill_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        bill_due_date (datetime.date | Literal[''] | None | Unset): Due date: on or after `bill_date`; `bill_date` + 30
            days when absent.
        bill_projectid (int | Literal[''] | None | str | Unset): An existing project.
        bill_tax_type (CreateInvoiceJsonBodyBillTaxTypeType0 | Literal[''] | None | Unset): Tax mode (default
            `summary`): `summary` (document-level rates on the discounted subtotal), `inline` (a rate and a discount per
            line, lines include their tax) or `vat` (EN 16931's arithmetic: one rate and an optional discount per line, net
            lines, a document discount split per VAT rate, VAT per category and rate rounded once; TOTALS.md "VAT mode").
        bill_currency (Literal[''] | None | str | Unset): The currency of every amount (ISO 4217; API.md §18); absent:
            the client's `currency`, else the company's, else `EUR`. Amounts have its decimals: 0 for `JPY`, 2 for `EUR`, 3
            for `KWD`.
        bill_exchange_rate (float | Literal[''] | None | str | Unset): How many units of the company's currency one unit
            of `bill_currency` is worth, given by the caller (never fetched); only when the currency is not the company's
            (else "The bill exchange rate is only allowed when the bill currency is not the company's currency (EUR).").
            `totals` then also shows the VAT total in the company's currency.
        bill_notes (Literal[''] | None | str | Unset): Notes (HTML allowed).
        bill_terms (Literal[''] | None | str | Unset): Terms (HTML allowed).
    """

    bill_clientid: int | str
    bill_categoryid: int | str
    bill_date: datetime.date
    bill_due_date: datetime.date | Literal[""] | None | Unset = UNSET
    bill_projectid: int | Literal[""] | None | str | Unset = UNSET
    bill_tax_type: CreateInvoiceJsonBodyBillTaxTypeType0 | Literal[""] | None | Unset = UNSET
    bill_currency: Literal[""] | None | str | Unset = UNSET
    bill_exchange_rate: float | Literal[""] | None | str | Unset = UNSET
    bill_notes: Literal[""] | None | str | Unset = UNSET
    bill_terms: Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bill_clientid: int | str
        bill_clientid = self.bill_clientid

        bill_categoryid: int | str
        bill_categoryid = self.bill_categoryid

        bill_date = self.bill_date.isoformat()

        bill_due_date: Literal[""] | None | str | Unset
        if isinstance(self.bill_due_date, Unset):
            bill_due_date = UNSET
        elif isinstance(self.bill_due_date, datetime.date):
            bill_due_date = self.bill_due_date.isoformat()
        else:
            bill_due_date = self.bill_due_date

        bill_projectid: int | Literal[""] | None | str | Unset
        if isinstance(self.bill_projectid, Unset):
            bill_projectid = UNSET
        else:
            bill_projectid = self.bill_projectid

        bill_tax_type: Literal[""] | None | str | Unset
        if isinstance(self.bill_tax_type, Unset):
            bill_tax_type = UNSET
        elif isinstance(self.bill_tax_type, CreateInvoiceJsonBodyBillTaxTypeType0):
            bill_tax_type = self.bill_tax_type.value
        else:
            bill_tax_type = self.bill_tax_type

        bill_currency: Literal[""] | None | str | Unset
        if isinstance(self.bill_currency, Unset):
            bill_currency = UNSET
        else:
            bill_currency = self.bill_currency

        bill_exchange_rate: float | Literal[""] | None | str | Unset
        if isinstance(self.bill_exchange_rate, Unset):
            bill_exchange_rate = UNSET
        else:
            bill_exchange_rate = self.bill_exchange_rate

        bill_notes: Literal[""] | None | str | Unset
        if isinstance(self.bill_notes, Unset):
            bill_notes = UNSET
        else:
            bill_notes = self.bill_notes

        bill_terms: Literal[""] | None | str | Unset
        if isinstance(self.bill_terms, Unset):
            bill_terms = UNSET
        else:
            bill_terms = self.bill_terms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bill_clientid": bill_clientid,
                "bill_categoryid": bill_categoryid,
                "bill_date": bill_date,
            }
        )
        if bill_due_date is not UNSET:
            field_dict["bill_due_date"] = bill_due_date
        if bill_projectid is not UNSET:
            field_dict["bill_projectid"] = bill_projectid
        if bill_tax_type is not UNSET:
            field_dict["bill_tax_type"] = bill_tax_type
        if bill_currency is not UNSET:
            field_dict["bill_currency"] = bill_currency
        if bill_exchange_rate is not UNSET:
            field_dict["bill_exchange_rate"] = bill_exchange_rate
        if bill_notes is not UNSET:
            field_dict["bill_notes"] = bill_notes
        if bill_terms is not UNSET:
            field_dict["bill_terms"] = bill_terms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_bill_clientid(data: object) -> int | str:
            return cast(int | str, data)

        bill_clientid = _parse_bill_clientid(d.pop("bill_clientid"))

        def _parse_bill_categoryid(data: object) -> int | str:
            return cast(int | str, data)

        bill_categoryid = _parse_bill_categoryid(d.pop("bill_categoryid"))

        bill_date = datetime.date.fromisoformat(d.pop("bill_date"))

        def _parse_bill_due_date(data: object) -> datetime.date | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_due_date_type_0 = datetime.date.fromisoformat(data)

                return bill_due_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(datetime.date | Literal[""] | None | Unset, data)

        bill_due_date = _parse_bill_due_date(d.pop("bill_due_date", UNSET))

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

        def _parse_bill_tax_type(data: object) -> CreateInvoiceJsonBodyBillTaxTypeType0 | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_tax_type_type_0 = CreateInvoiceJsonBodyBillTaxTypeType0(data)

                return bill_tax_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(CreateInvoiceJsonBodyBillTaxTypeType0 | Literal[""] | None | Unset, data)

        bill_tax_type = _parse_bill_tax_type(d.pop("bill_tax_type", UNSET))

        def _parse_bill_currency(data: object) -> Literal[""] | None | str | Unset:
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

        bill_currency = _parse_bill_currency(d.pop("bill_currency", UNSET))

        def _parse_bill_exchange_rate(data: object) -> float | Literal[""] | None | str | Unset:
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
            return cast(float | Literal[""] | None | str | Unset, data)

        bill_exchange_rate = _parse_bill_exchange_rate(d.pop("bill_exchange_rate", UNSET))

        def _parse_bill_notes(data: object) -> Literal[""] | None | str | Unset:
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

        bill_notes = _parse_bill_notes(d.pop("bill_notes", UNSET))

        def _parse_bill_terms(data: object) -> Literal[""] | None | str | Unset:
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

        bill_terms = _parse_bill_terms(d.pop("bill_terms", UNSET))

        create_invoice_json_body = cls(
            bill_clientid=bill_clientid,
            bill_categoryid=bill_categoryid,
            bill_date=bill_date,
            bill_due_date=bill_due_date,
            bill_projectid=bill_projectid,
            bill_tax_type=bill_tax_type,
            bill_currency=bill_currency,
            bill_exchange_rate=bill_exchange_rate,
            bill_notes=bill_notes,
            bill_terms=bill_terms,
        )

        create_invoice_json_body.additional_properties = d
        return create_invoice_json_body

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
