from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.bill_totals_discount_type import BillTotalsDiscountType

if TYPE_CHECKING:
    from ..models.tax_breakdown import TaxBreakdown


T = TypeVar("T", bound="BillTotals")


@_attrs_define
class BillTotals:
    """Totals of an estimate or invoice: read-only, computed by the server, every amount with the bill currency's decimals.

    Attributes:
        subtotal (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's
            decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
        subtotal_before_discount (str): An amount of an estimate, invoice or payment as decimal text with exactly its
            currency's decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD`
            (`"12.500"`).
        discount_type (BillTotalsDiscountType):
        discount_percentage (str): A percentage as decimal text with two decimals (`"7.50"`).
        discount_amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's
            decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
        amount_before_tax (str): An amount of an estimate, invoice or payment as decimal text with exactly its
            currency's decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD`
            (`"12.500"`).
        tax_total_percentage (str): A percentage as decimal text with two decimals (`"7.50"`).
        tax_total_amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's
            decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
        adjustment_description (None | str):
        adjustment_amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its
            currency's decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD`
            (`"12.500"`).
        final_amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's
            decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
        company_currency (None | str): The company's currency the bill's exchange rate converts to (the company's when
            the rate was set); `null` without an exchange rate.
        tax_total_in_company_currency (None | str): The VAT total in the company's currency (EN 16931 BT-111):
            `tax_total_amount` × `exchange_rate`, rounded once, half away from zero, to that currency's minor unit; `null`
            without an exchange rate.
        tax_breakdown (list[TaxBreakdown] | None): What EN 16931 states of the bill, per VAT category and rate (BG-23):
            the taxable amount and its VAT, each rounded once. Always present in `vat` mode; in `summary` and `inline` modes
            when EN 16931 states the bill's own figures, else `null` (two rates on every line, VAT inside taxed inline
            lines, a figure the CRM's arithmetic rounds differently: `GET …/einvoice/readiness` names it).
    """

    subtotal: str
    subtotal_before_discount: str
    discount_type: BillTotalsDiscountType
    discount_percentage: str
    discount_amount: str
    amount_before_tax: str
    tax_total_percentage: str
    tax_total_amount: str
    adjustment_description: None | str
    adjustment_amount: str
    final_amount: str
    company_currency: None | str
    tax_total_in_company_currency: None | str
    tax_breakdown: list[TaxBreakdown] | None

    def to_dict(self) -> dict[str, Any]:
        subtotal = self.subtotal

        subtotal_before_discount = self.subtotal_before_discount

        discount_type = self.discount_type.value

        discount_percentage = self.discount_percentage

        discount_amount = self.discount_amount

        amount_before_tax = self.amount_before_tax

        tax_total_percentage = self.tax_total_percentage

        tax_total_amount = self.tax_total_amount

        adjustment_description: None | str
        adjustment_description = self.adjustment_description

        adjustment_amount = self.adjustment_amount

        final_amount = self.final_amount

        company_currency: None | str
        company_currency = self.company_currency

        tax_total_in_company_currency: None | str
        tax_total_in_company_currency = self.tax_total_in_company_currency

        tax_breakdown: list[dict[str, Any]] | None
        if isinstance(self.tax_breakdown, list):
            tax_breakdown = []
            for tax_breakdown_type_0_item_data in self.tax_breakdown:
                tax_breakdown_type_0_item = tax_breakdown_type_0_item_data.to_dict()
                tax_breakdown.append(tax_breakdown_type_0_item)

        else:
            tax_breakdown = self.tax_breakdown

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subtotal": subtotal,
                "subtotal_before_discount": subtotal_before_discount,
                "discount_type": discount_type,
                "discount_percentage": discount_percentage,
                "discount_amount": discount_amount,
                "amount_before_tax": amount_before_tax,
                "tax_total_percentage": tax_total_percentage,
                "tax_total_amount": tax_total_amount,
                "adjustment_description": adjustment_description,
                "adjustment_amount": adjustment_amount,
                "final_amount": final_amount,
                "company_currency": company_currency,
                "tax_total_in_company_currency": tax_total_in_company_currency,
                "tax_breakdown": tax_breakdown,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tax_breakdown import TaxBreakdown  # noqa: PLC0415

        d = dict(src_dict)
        subtotal = d.pop("subtotal")

        subtotal_before_discount = d.pop("subtotal_before_discount")

        discount_type = BillTotalsDiscountType(d.pop("discount_type"))

        discount_percentage = d.pop("discount_percentage")

        discount_amount = d.pop("discount_amount")

        amount_before_tax = d.pop("amount_before_tax")

        tax_total_percentage = d.pop("tax_total_percentage")

        tax_total_amount = d.pop("tax_total_amount")

        def _parse_adjustment_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        adjustment_description = _parse_adjustment_description(d.pop("adjustment_description"))

        adjustment_amount = d.pop("adjustment_amount")

        final_amount = d.pop("final_amount")

        def _parse_company_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        company_currency = _parse_company_currency(d.pop("company_currency"))

        def _parse_tax_total_in_company_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tax_total_in_company_currency = _parse_tax_total_in_company_currency(d.pop("tax_total_in_company_currency"))

        def _parse_tax_breakdown(data: object) -> list[TaxBreakdown] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tax_breakdown_type_0 = []
                _tax_breakdown_type_0 = data
                for tax_breakdown_type_0_item_data in _tax_breakdown_type_0:
                    tax_breakdown_type_0_item = TaxBreakdown.from_dict(tax_breakdown_type_0_item_data)

                    tax_breakdown_type_0.append(tax_breakdown_type_0_item)

                return tax_breakdown_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TaxBreakdown] | None, data)

        tax_breakdown = _parse_tax_breakdown(d.pop("tax_breakdown"))

        bill_totals = cls(
            subtotal=subtotal,
            subtotal_before_discount=subtotal_before_discount,
            discount_type=discount_type,
            discount_percentage=discount_percentage,
            discount_amount=discount_amount,
            amount_before_tax=amount_before_tax,
            tax_total_percentage=tax_total_percentage,
            tax_total_amount=tax_total_amount,
            adjustment_description=adjustment_description,
            adjustment_amount=adjustment_amount,
            final_amount=final_amount,
            company_currency=company_currency,
            tax_total_in_company_currency=tax_total_in_company_currency,
            tax_breakdown=tax_breakdown,
        )

        return bill_totals
