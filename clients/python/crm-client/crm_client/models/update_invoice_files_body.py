from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.update_invoice_files_body_bill_discount_type_type_0 import UpdateInvoiceFilesBodyBillDiscountTypeType0
from ..models.update_invoice_files_body_bill_tax_type_type_0 import UpdateInvoiceFilesBodyBillTaxTypeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateInvoiceFilesBody")


@_attrs_define
class UpdateInvoiceFilesBody:
    """
    Attributes:
        bill_categoryid (str): A record id as decimal text.
        bill_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        bill_due_date (datetime.date | Literal[''] | Unset): Due date (on or after `bill_date`); absent is kept, sent
            empty is cleared.
        bill_projectid (Literal[''] | str | Unset): An existing project; absent is kept, sent empty is cleared.
        bill_notes (Literal[''] | str | Unset): Notes; absent is kept, sent empty is cleared.
        bill_terms (Literal[''] | str | Unset): Terms; absent is kept, sent empty is cleared.
        bill_tax_type (Literal[''] | Unset | UpdateInvoiceFilesBodyBillTaxTypeType0): Tax mode; changing it clears the
            taxes and the header discount (and, to `inline`, the lines' tax rates).
        bill_discount_type (Literal[''] | Unset | UpdateInvoiceFilesBodyBillDiscountTypeType0): Header discount kind;
            must be `none` in inline mode.
        bill_discount_amount (Literal[''] | str | Unset): Fixed discount amount, with at most the bill currency's
            decimals (required when the type is `fixed` and none is stored).
        bill_discount_percentage (Literal[''] | str | Unset): Discount percentage, 0 to 100 (required when the type is
            `percentage` and none is stored).
        bill_adjustment_description (Literal[''] | str | Unset): Adjustment label; absent is kept, sent empty is
            cleared.
        bill_adjustment_amount (Literal[''] | str | Unset): Adjustment amount, either sign, with at most the bill
            currency's decimals; absent is kept, sent empty is `0.00`.
        bill_currency (Literal[''] | str | Unset): The currency of every amount (API.md §18); absent (or empty) is kept.
            A new currency recomputes the totals to its minor unit; the stored fixed discount, adjustment and fixed line
            discounts must have at most its decimals (else a 422 naming them, e.g. `items.0.discount_value`), and a stored
            exchange rate is dropped unless this request gives one.
        bill_exchange_rate (float | Literal[''] | str | Unset): The exchange rate to the company's currency, only when
            the bill currency is not the company's; absent is kept, sent empty is cleared.
    """

    bill_categoryid: str
    bill_date: datetime.date
    bill_due_date: datetime.date | Literal[""] | Unset = UNSET
    bill_projectid: Literal[""] | str | Unset = UNSET
    bill_notes: Literal[""] | str | Unset = UNSET
    bill_terms: Literal[""] | str | Unset = UNSET
    bill_tax_type: Literal[""] | Unset | UpdateInvoiceFilesBodyBillTaxTypeType0 = UNSET
    bill_discount_type: Literal[""] | Unset | UpdateInvoiceFilesBodyBillDiscountTypeType0 = UNSET
    bill_discount_amount: Literal[""] | str | Unset = UNSET
    bill_discount_percentage: Literal[""] | str | Unset = UNSET
    bill_adjustment_description: Literal[""] | str | Unset = UNSET
    bill_adjustment_amount: Literal[""] | str | Unset = UNSET
    bill_currency: Literal[""] | str | Unset = UNSET
    bill_exchange_rate: float | Literal[""] | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bill_categoryid = self.bill_categoryid

        bill_date = self.bill_date.isoformat()

        bill_due_date: Literal[""] | str | Unset
        if isinstance(self.bill_due_date, Unset):
            bill_due_date = UNSET
        elif isinstance(self.bill_due_date, datetime.date):
            bill_due_date = self.bill_due_date.isoformat()
        else:
            bill_due_date = self.bill_due_date

        bill_projectid: Literal[""] | str | Unset
        if isinstance(self.bill_projectid, Unset):
            bill_projectid = UNSET
        else:
            bill_projectid = self.bill_projectid

        bill_notes: Literal[""] | str | Unset
        if isinstance(self.bill_notes, Unset):
            bill_notes = UNSET
        else:
            bill_notes = self.bill_notes

        bill_terms: Literal[""] | str | Unset
        if isinstance(self.bill_terms, Unset):
            bill_terms = UNSET
        else:
            bill_terms = self.bill_terms

        bill_tax_type: Literal[""] | str | Unset
        if isinstance(self.bill_tax_type, Unset):
            bill_tax_type = UNSET
        elif isinstance(self.bill_tax_type, UpdateInvoiceFilesBodyBillTaxTypeType0):
            bill_tax_type = self.bill_tax_type.value
        else:
            bill_tax_type = self.bill_tax_type

        bill_discount_type: Literal[""] | str | Unset
        if isinstance(self.bill_discount_type, Unset):
            bill_discount_type = UNSET
        elif isinstance(self.bill_discount_type, UpdateInvoiceFilesBodyBillDiscountTypeType0):
            bill_discount_type = self.bill_discount_type.value
        else:
            bill_discount_type = self.bill_discount_type

        bill_discount_amount: Literal[""] | str | Unset
        if isinstance(self.bill_discount_amount, Unset):
            bill_discount_amount = UNSET
        else:
            bill_discount_amount = self.bill_discount_amount

        bill_discount_percentage: Literal[""] | str | Unset
        if isinstance(self.bill_discount_percentage, Unset):
            bill_discount_percentage = UNSET
        else:
            bill_discount_percentage = self.bill_discount_percentage

        bill_adjustment_description: Literal[""] | str | Unset
        if isinstance(self.bill_adjustment_description, Unset):
            bill_adjustment_description = UNSET
        else:
            bill_adjustment_description = self.bill_adjustment_description

        bill_adjustment_amount: Literal[""] | str | Unset
        if isinstance(self.bill_adjustment_amount, Unset):
            bill_adjustment_amount = UNSET
        else:
            bill_adjustment_amount = self.bill_adjustment_amount

        bill_currency: Literal[""] | str | Unset
        if isinstance(self.bill_currency, Unset):
            bill_currency = UNSET
        else:
            bill_currency = self.bill_currency

        bill_exchange_rate: float | Literal[""] | str | Unset
        if isinstance(self.bill_exchange_rate, Unset):
            bill_exchange_rate = UNSET
        else:
            bill_exchange_rate = self.bill_exchange_rate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bill_categoryid": bill_categoryid,
                "bill_date": bill_date,
            }
        )
        if bill_due_date is not UNSET:
            field_dict["bill_due_date"] = bill_due_date
        if bill_projectid is not UNSET:
            field_dict["bill_projectid"] = bill_projectid
        if bill_notes is not UNSET:
            field_dict["bill_notes"] = bill_notes
        if bill_terms is not UNSET:
            field_dict["bill_terms"] = bill_terms
        if bill_tax_type is not UNSET:
            field_dict["bill_tax_type"] = bill_tax_type
        if bill_discount_type is not UNSET:
            field_dict["bill_discount_type"] = bill_discount_type
        if bill_discount_amount is not UNSET:
            field_dict["bill_discount_amount"] = bill_discount_amount
        if bill_discount_percentage is not UNSET:
            field_dict["bill_discount_percentage"] = bill_discount_percentage
        if bill_adjustment_description is not UNSET:
            field_dict["bill_adjustment_description"] = bill_adjustment_description
        if bill_adjustment_amount is not UNSET:
            field_dict["bill_adjustment_amount"] = bill_adjustment_amount
        if bill_currency is not UNSET:
            field_dict["bill_currency"] = bill_currency
        if bill_exchange_rate is not UNSET:
            field_dict["bill_exchange_rate"] = bill_exchange_rate

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("bill_categoryid", (None, str(self.bill_categoryid).encode(), "text/plain")))

        files.append(("bill_date", (None, self.bill_date.isoformat().encode(), "text/plain")))

        if not isinstance(self.bill_due_date, Unset):
            if isinstance(self.bill_due_date, datetime.date):
                files.append(("bill_due_date", (None, self.bill_due_date.isoformat().encode(), "text/plain")))
            else:
                files.append(("bill_due_date", (None, self.bill_due_date, "text/plain")))

        if not isinstance(self.bill_projectid, Unset):
            if isinstance(self.bill_projectid, str):
                files.append(("bill_projectid", (None, str(self.bill_projectid).encode(), "text/plain")))
            else:
                files.append(("bill_projectid", (None, self.bill_projectid, "text/plain")))

        if not isinstance(self.bill_notes, Unset):
            if isinstance(self.bill_notes, str):
                files.append(("bill_notes", (None, str(self.bill_notes).encode(), "text/plain")))
            else:
                files.append(("bill_notes", (None, self.bill_notes, "text/plain")))

        if not isinstance(self.bill_terms, Unset):
            if isinstance(self.bill_terms, str):
                files.append(("bill_terms", (None, str(self.bill_terms).encode(), "text/plain")))
            else:
                files.append(("bill_terms", (None, self.bill_terms, "text/plain")))

        if not isinstance(self.bill_tax_type, Unset):
            if isinstance(self.bill_tax_type, UpdateInvoiceFilesBodyBillTaxTypeType0):
                files.append(("bill_tax_type", (None, str(self.bill_tax_type.value).encode(), "text/plain")))
            else:
                files.append(("bill_tax_type", (None, self.bill_tax_type, "text/plain")))

        if not isinstance(self.bill_discount_type, Unset):
            if isinstance(self.bill_discount_type, UpdateInvoiceFilesBodyBillDiscountTypeType0):
                files.append(("bill_discount_type", (None, str(self.bill_discount_type.value).encode(), "text/plain")))
            else:
                files.append(("bill_discount_type", (None, self.bill_discount_type, "text/plain")))

        if not isinstance(self.bill_discount_amount, Unset):
            if isinstance(self.bill_discount_amount, str):
                files.append(("bill_discount_amount", (None, str(self.bill_discount_amount).encode(), "text/plain")))
            else:
                files.append(("bill_discount_amount", (None, self.bill_discount_amount, "text/plain")))

        if not isinstance(self.bill_discount_percentage, Unset):
            if isinstance(self.bill_discount_percentage, str):
                files.append(
                    ("bill_discount_percentage", (None, str(self.bill_discount_percentage).encode(), "text/plain"))
                )
            else:
                files.append(("bill_discount_percentage", (None, self.bill_discount_percentage, "text/plain")))

        if not isinstance(self.bill_adjustment_description, Unset):
            if isinstance(self.bill_adjustment_description, str):
                files.append(
                    (
                        "bill_adjustment_description",
                        (None, str(self.bill_adjustment_description).encode(), "text/plain"),
                    )
                )
            else:
                files.append(("bill_adjustment_description", (None, self.bill_adjustment_description, "text/plain")))

        if not isinstance(self.bill_adjustment_amount, Unset):
            if isinstance(self.bill_adjustment_amount, str):
                files.append(
                    ("bill_adjustment_amount", (None, str(self.bill_adjustment_amount).encode(), "text/plain"))
                )
            else:
                files.append(("bill_adjustment_amount", (None, self.bill_adjustment_amount, "text/plain")))

        if not isinstance(self.bill_currency, Unset):
            if isinstance(self.bill_currency, str):
                files.append(("bill_currency", (None, str(self.bill_currency).encode(), "text/plain")))
            else:
                files.append(("bill_currency", (None, self.bill_currency, "text/plain")))

        if not isinstance(self.bill_exchange_rate, Unset):
            if isinstance(self.bill_exchange_rate, float):
                files.append(("bill_exchange_rate", (None, str(self.bill_exchange_rate).encode(), "text/plain")))
            elif isinstance(self.bill_exchange_rate, str):
                files.append(("bill_exchange_rate", (None, str(self.bill_exchange_rate).encode(), "text/plain")))
            else:
                files.append(("bill_exchange_rate", (None, self.bill_exchange_rate, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bill_categoryid = d.pop("bill_categoryid")

        bill_date = datetime.date.fromisoformat(d.pop("bill_date"))

        def _parse_bill_due_date(data: object) -> datetime.date | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_due_date_type_0 = datetime.date.fromisoformat(data)

                return bill_due_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            bill_due_date_type_1 = cast(Literal[""], data)
            if bill_due_date_type_1 != "":
                raise ValueError(f"bill_due_date_type_1 must match const '', got '{bill_due_date_type_1}'")
            return bill_due_date_type_1

        bill_due_date = _parse_bill_due_date(d.pop("bill_due_date", UNSET))

        def _parse_bill_projectid(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_projectid_type_1 = cast(Literal[""], data)
            if bill_projectid_type_1 != "":
                raise ValueError(f"bill_projectid_type_1 must match const '', got '{bill_projectid_type_1}'")
            return bill_projectid_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_projectid = _parse_bill_projectid(d.pop("bill_projectid", UNSET))

        def _parse_bill_notes(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_notes_type_1 = cast(Literal[""], data)
            if bill_notes_type_1 != "":
                raise ValueError(f"bill_notes_type_1 must match const '', got '{bill_notes_type_1}'")
            return bill_notes_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_notes = _parse_bill_notes(d.pop("bill_notes", UNSET))

        def _parse_bill_terms(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_terms_type_1 = cast(Literal[""], data)
            if bill_terms_type_1 != "":
                raise ValueError(f"bill_terms_type_1 must match const '', got '{bill_terms_type_1}'")
            return bill_terms_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_terms = _parse_bill_terms(d.pop("bill_terms", UNSET))

        def _parse_bill_tax_type(data: object) -> Literal[""] | Unset | UpdateInvoiceFilesBodyBillTaxTypeType0:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_tax_type_type_0 = UpdateInvoiceFilesBodyBillTaxTypeType0(data)

                return bill_tax_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            bill_tax_type_type_1 = cast(Literal[""], data)
            if bill_tax_type_type_1 != "":
                raise ValueError(f"bill_tax_type_type_1 must match const '', got '{bill_tax_type_type_1}'")
            return bill_tax_type_type_1

        bill_tax_type = _parse_bill_tax_type(d.pop("bill_tax_type", UNSET))

        def _parse_bill_discount_type(
            data: object,
        ) -> Literal[""] | Unset | UpdateInvoiceFilesBodyBillDiscountTypeType0:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_discount_type_type_0 = UpdateInvoiceFilesBodyBillDiscountTypeType0(data)

                return bill_discount_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            bill_discount_type_type_1 = cast(Literal[""], data)
            if bill_discount_type_type_1 != "":
                raise ValueError(f"bill_discount_type_type_1 must match const '', got '{bill_discount_type_type_1}'")
            return bill_discount_type_type_1

        bill_discount_type = _parse_bill_discount_type(d.pop("bill_discount_type", UNSET))

        def _parse_bill_discount_amount(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_discount_amount_type_1 = cast(Literal[""], data)
            if bill_discount_amount_type_1 != "":
                raise ValueError(
                    f"bill_discount_amount_type_1 must match const '', got '{bill_discount_amount_type_1}'"
                )
            return bill_discount_amount_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_discount_amount = _parse_bill_discount_amount(d.pop("bill_discount_amount", UNSET))

        def _parse_bill_discount_percentage(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_discount_percentage_type_1 = cast(Literal[""], data)
            if bill_discount_percentage_type_1 != "":
                raise ValueError(
                    f"bill_discount_percentage_type_1 must match const '', got '{bill_discount_percentage_type_1}'"
                )
            return bill_discount_percentage_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_discount_percentage = _parse_bill_discount_percentage(d.pop("bill_discount_percentage", UNSET))

        def _parse_bill_adjustment_description(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_adjustment_description_type_1 = cast(Literal[""], data)
            if bill_adjustment_description_type_1 != "":
                raise ValueError(
                    f"bill_adjustment_description_type_1 must match const '', got '{bill_adjustment_description_type_1}'"
                )
            return bill_adjustment_description_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_adjustment_description = _parse_bill_adjustment_description(d.pop("bill_adjustment_description", UNSET))

        def _parse_bill_adjustment_amount(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_adjustment_amount_type_1 = cast(Literal[""], data)
            if bill_adjustment_amount_type_1 != "":
                raise ValueError(
                    f"bill_adjustment_amount_type_1 must match const '', got '{bill_adjustment_amount_type_1}'"
                )
            return bill_adjustment_amount_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_adjustment_amount = _parse_bill_adjustment_amount(d.pop("bill_adjustment_amount", UNSET))

        def _parse_bill_currency(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_currency_type_1 = cast(Literal[""], data)
            if bill_currency_type_1 != "":
                raise ValueError(f"bill_currency_type_1 must match const '', got '{bill_currency_type_1}'")
            return bill_currency_type_1
            return cast(Literal[""] | str | Unset, data)

        bill_currency = _parse_bill_currency(d.pop("bill_currency", UNSET))

        def _parse_bill_exchange_rate(data: object) -> float | Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bill_exchange_rate_type_1 = cast(Literal[""], data)
            if bill_exchange_rate_type_1 != "":
                raise ValueError(f"bill_exchange_rate_type_1 must match const '', got '{bill_exchange_rate_type_1}'")
            return bill_exchange_rate_type_1
            return cast(float | Literal[""] | str | Unset, data)

        bill_exchange_rate = _parse_bill_exchange_rate(d.pop("bill_exchange_rate", UNSET))

        update_invoice_files_body = cls(
            bill_categoryid=bill_categoryid,
            bill_date=bill_date,
            bill_due_date=bill_due_date,
            bill_projectid=bill_projectid,
            bill_notes=bill_notes,
            bill_terms=bill_terms,
            bill_tax_type=bill_tax_type,
            bill_discount_type=bill_discount_type,
            bill_discount_amount=bill_discount_amount,
            bill_discount_percentage=bill_discount_percentage,
            bill_adjustment_description=bill_adjustment_description,
            bill_adjustment_amount=bill_adjustment_amount,
            bill_currency=bill_currency,
            bill_exchange_rate=bill_exchange_rate,
        )

        update_invoice_files_body.additional_properties = d
        return update_invoice_files_body

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
