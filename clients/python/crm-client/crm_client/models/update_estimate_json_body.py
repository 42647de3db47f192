from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.update_estimate_json_body_bill_discount_type_type_0 import UpdateEstimateJsonBodyBillDiscountTypeType0
from ..models.update_estimate_json_body_bill_tax_type_type_0 import UpdateEstimateJsonBodyBillTaxTypeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateEstimateJsonBody")


@_attrs_define
class UpdateEstimateJsonBody:
    """
    Attributes:
        bill_categoryid (int | str): A record id: a positive integer, as a JSON number (an integral value such as `1.0`
            counts) or as decimal text.
        bill_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        bill_expiry_date (datetime.date | Literal[''] | None | Unset): Expiry date (on or after `bill_date`); absent is
            kept, sent empty is cleared.
        bill_projectid (int | Literal[''] | None | str | Unset): An existing project; absent is kept, sent empty is
            cleared.
        bill_notes (Literal[''] | None | str | Unset): Notes; absent is kept, sent empty is cleared.
        bill_terms (Literal[''] | None | str | Unset): Terms; absent is kept, sent empty is cleared.
        bill_tax_type (Literal[''] | None | Unset | UpdateEstimateJsonBodyBillTaxTypeType0): Tax mode; changing it
            clears the taxes and the header discount (and, to `inline`, the lines' tax rates).
        bill_discount_type (Literal[''] | None | Unset | UpdateEstimateJsonBodyBillDiscountTypeType0): Header discount
            kind; must be `none` in inline mode.
        bill_discount_amount (float | Literal[''] | None | str | Unset): Fixed discount amount, with at most the bill
            currency's decimals (required when the type is `fixed` and none is stored).
        bill_discount_percentage (float | Literal[''] | None | str | Unset): Discount percentage, 0 to 100 (required
            when the type is `percentage` and none is stored).
        bill_adjustment_description (Literal[''] | None | str | Unset): Adjustment label; absent is kept, sent empty is
            cleared.
        bill_adjustment_amount (float | Literal[''] | None | str | Unset): Adjustment amount, either sign, with at most
            the bill currency's decimals; absent is kept, sent empty is `0.00`.
        bill_currency (Literal[''] | None | str | Unset): The currency of every amount (API.md §18); absent (or empty)
            is kept. A new currency recomputes the totals to its minor unit; the stored fixed discount, adjustment and fixed
            line discounts must have at most its decimals (else a 422 naming them, e.g. `items.0.discount_value`), and a
            stored exchange rate is dropped unless this request gives one.
        bill_exchange_rate (float | Literal[''] | None | str | Unset): The exchange rate to the company's currency, only
            when the bill currency is not the company's; absent is kept, sent empty is cleared.
    """

    bill_categoryid: int | str
    bill_date: datetime.date
    bill_expiry_date: datetime.date | Literal[""] | None | Unset = UNSET
    bill_projectid: int | Literal[""] | None | str | Unset = UNSET
    bill_notes: Literal[""] | None | str | Unset = UNSET
    bill_terms: Literal[""] | None | str | Unset = UNSET
    bill_tax_type: Literal[""] | None | Unset | UpdateEstimateJsonBodyBillTaxTypeType0 = UNSET
    bill_discount_type: Literal[""] | None | Unset | UpdateEstimateJsonBodyBillDiscountTypeType0 = UNSET
    bill_discount_amount: float | Literal[""] | None | str | Unset = UNSET
    bill_discount_percentage: float | Literal[""] | None | str | Unset = UNSET
    bill_adjustment_description: Literal[""] | None | str | Unset = UNSET
    bill_adjustment_amount: float | Literal[""] | None | str | Unset = UNSET
    bill_currency: Literal[""] | None | str | Unset = UNSET
    bill_exchange_rate: float | Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bill_categoryid: int | str
        bill_categoryid = self.bill_categoryid

        bill_date = self.bill_date.isoformat()

        bill_expiry_date: Literal[""] | None | str | Unset
        if isinstance(self.bill_expiry_date, Unset):
            bill_expiry_date = UNSET
        elif isinstance(self.bill_expiry_date, datetime.date):
            bill_expiry_date = self.bill_expiry_date.isoformat()
        else:
            bill_expiry_date = self.bill_expiry_date

        bill_projectid: int | Literal[""] | None | str | Unset
        if isinstance(self.bill_projectid, Unset):
            bill_projectid = UNSET
        else:
            bill_projectid = self.bill_projectid

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

        bill_tax_type: Literal[""] | None | str | Unset
        if isinstance(self.bill_tax_type, Unset):
            bill_tax_type = UNSET
        elif isinstance(self.bill_tax_type, UpdateEstimateJsonBodyBillTaxTypeType0):
            bill_tax_type = self.bill_tax_type.value
        else:
            bill_tax_type = self.bill_tax_type

        bill_discount_type: Literal[""] | None | str | Unset
        if isinstance(self.bill_discount_type, Unset):
            bill_discount_type = UNSET
        elif isinstance(self.bill_discount_type, UpdateEstimateJsonBodyBillDiscountTypeType0):
            bill_discount_type = self.bill_discount_type.value
        else:
            bill_discount_type = self.bill_discount_type

        bill_discount_amount: float | Literal[""] | None | str | Unset
        if isinstance(self.bill_discount_amount, Unset):
            bill_discount_amount = UNSET
        else:
            bill_discount_amount = self.bill_discount_amount

        bill_discount_percentage: float | Literal[""] | None | str | Unset
        if isinstance(self.bill_discount_percentage, Unset):
            bill_discount_percentage = UNSET
        else:
            bill_discount_percentage = self.bill_discount_percentage

        bill_adjustment_description: Literal[""] | None | str | Unset
        if isinstance(self.bill_adjustment_description, Unset):
            bill_adjustment_description = UNSET
        else:
            bill_adjustment_description = self.bill_adjustment_description

        bill_adjustment_amount: float | Literal[""] | None | str | Unset
        if isinstance(self.bill_adjustment_amount, Unset):
            bill_adjustment_amount = UNSET
        else:
            bill_adjustment_amount = self.bill_adjustment_amount

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bill_categoryid": bill_categoryid,
                "bill_date": bill_date,
            }
        )
        if bill_expiry_date is not UNSET:
            field_dict["bill_expiry_date"] = bill_expiry_date
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

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_bill_categoryid(data: object) -> int | str:
            return cast(int | str, data)

        bill_categoryid = _parse_bill_categoryid(d.pop("bill_categoryid"))

        bill_date = datetime.date.fromisoformat(d.pop("bill_date"))

        def _parse_bill_expiry_date(data: object) -> datetime.date | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_expiry_date_type_0 = datetime.date.fromisoformat(data)

                return bill_expiry_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(datetime.date | Literal[""] | None | Unset, data)

        bill_expiry_date = _parse_bill_expiry_date(d.pop("bill_expiry_date", UNSET))

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

        def _parse_bill_tax_type(data: object) -> Literal[""] | None | Unset | UpdateEstimateJsonBodyBillTaxTypeType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_tax_type_type_0 = UpdateEstimateJsonBodyBillTaxTypeType0(data)

                return bill_tax_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateEstimateJsonBodyBillTaxTypeType0, data)

        bill_tax_type = _parse_bill_tax_type(d.pop("bill_tax_type", UNSET))

        def _parse_bill_discount_type(
            data: object,
        ) -> Literal[""] | None | Unset | UpdateEstimateJsonBodyBillDiscountTypeType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bill_discount_type_type_0 = UpdateEstimateJsonBodyBillDiscountTypeType0(data)

                return bill_discount_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateEstimateJsonBodyBillDiscountTypeType0, data)

        bill_discount_type = _parse_bill_discount_type(d.pop("bill_discount_type", UNSET))

        def _parse_bill_discount_amount(data: object) -> float | Literal[""] | None | str | Unset:
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

        bill_discount_amount = _parse_bill_discount_amount(d.pop("bill_discount_amount", UNSET))

        def _parse_bill_discount_percentage(data: object) -> float | Literal[""] | None | str | Unset:
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

        bill_discount_percentage = _parse_bill_discount_percentage(d.pop("bill_discount_percentage", UNSET))

        def _parse_bill_adjustment_description(data: object) -> Literal[""] | None | str | Unset:
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

        bill_adjustment_description = _parse_bill_adjustment_description(d.pop("bill_adjustment_description", UNSET))

        def _parse_bill_adjustment_amount(data: object) -> float | Literal[""] | None | str | Unset:
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

        bill_adjustment_amount = _parse_bill_adjustment_amount(d.pop("bill_adjustment_amount", UNSET))

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

        update_estimate_json_body = cls(
            bill_categoryid=bill_categoryid,
            bill_date=bill_date,
            bill_expiry_date=bill_expiry_date,
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

        update_estimate_json_body.additional_properties = d
        return update_estimate_json_body

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
