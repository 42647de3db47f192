from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.boolean_input_type_1 import BooleanInputType1
from ..models.boolean_input_type_2 import BooleanInputType2
from ..models.update_recurring_invoice_json_body_catch_up_type_0 import UpdateRecurringInvoiceJsonBodyCatchUpType0
from ..models.update_recurring_invoice_json_body_discount_type_type_0 import (
    UpdateRecurringInvoiceJsonBodyDiscountTypeType0,
)
from ..models.update_recurring_invoice_json_body_frequency_type_0 import UpdateRecurringInvoiceJsonBodyFrequencyType0
from ..models.update_recurring_invoice_json_body_status_type_0 import UpdateRecurringInvoiceJsonBodyStatusType0
from ..models.update_recurring_invoice_json_body_tax_type_type_0 import UpdateRecurringInvoiceJsonBodyTaxTypeType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.update_recurring_invoice_json_body_items_item import UpdateRecurringInvoiceJsonBodyItemsItem


T = TypeVar("T", bound="UpdateRecurringInvoiceJsonBody")


@_attrs_define
class UpdateRecurringInvoiceJsonBody:
    """
    Attributes:
        items (list[UpdateRecurringInvoiceJsonBodyItemsItem] | Unset): The complete set of line items, in order
            (positions 1..n).
        tax_rate_ids (list[int | Literal[''] | None | str] | Literal[''] | None | Unset): Summary mode only: the
            document-level tax rates (enabled, distinct). Absent means no summary taxes.
        client_id (int | Literal[''] | None | str | Unset): Template: an existing client (`bill_clientid` of the
            invoices it makes).
        category_id (int | Literal[''] | None | str | Unset): Template: a category of type `invoice`.
        currency (Literal[''] | None | str | Unset): Template: the invoices' currency (ISO 4217); absent: the client's,
            else the company's.
        tax_type (Literal[''] | None | Unset | UpdateRecurringInvoiceJsonBodyTaxTypeType0): Template: the tax mode
            (default `summary`).
        discount_type (Literal[''] | None | Unset | UpdateRecurringInvoiceJsonBodyDiscountTypeType0): Template: the
            document discount, as `PATCH /api/invoices/{id}` takes `bill_discount_type`.
        discount_percentage (float | Literal[''] | None | str | Unset): Template: the discount's percentage (with
            `discount_type` `percentage`).
        discount_amount (float | Literal[''] | None | str | Unset): Template: the discount's amount (with
            `discount_type` `fixed`), in the currency's decimals.
        notes (Literal[''] | None | str | Unset): Template: notes (HTML allowed).
        terms (Literal[''] | None | str | Unset): Template: terms (HTML allowed).
        frequency (Literal[''] | None | Unset | UpdateRecurringInvoiceJsonBodyFrequencyType0): How often: `weekly`,
            `monthly`, `quarterly` or `yearly`. Cannot be cleared.
        interval (int | Literal[''] | None | Unset): Every how many periods (1 to 1000, default 1).
        start_date (datetime.date | Literal[''] | None | Unset): The first occurrence; every date is computed from it
            (the 31st falls on the last day of shorter months and comes back), in the schedule's time zone.
        end_date (datetime.date | Literal[''] | None | Unset): No occurrence after this date (on or after `start_date`);
            not with `count`. Sent empty, it is cleared.
        count (int | Literal[''] | None | Unset): At most this many occurrences (1 to 10,000); not with `end_date`. Sent
            empty, it is cleared.
        due_days (int | Literal[''] | None | Unset): Each invoice is due this many days after its date (0 to 3650,
            default 30).
        auto_publish (bool | BooleanInputType1 | BooleanInputType2 | Literal[''] | None | Unset): Issue and email each
            invoice (with its number), or leave it a draft (default `false`).
        catch_up (Literal[''] | None | Unset | UpdateRecurringInvoiceJsonBodyCatchUpType0): After downtime or a pause:
            make every missed occurrence (`all`) or only the latest (`latest`, the default; the others are skipped).
        status (Literal[''] | None | Unset | UpdateRecurringInvoiceJsonBodyStatusType0): `active` (default) or `paused`;
            `finished` is set by the service once no occurrence is left.
        timezone (Literal[''] | None | str | Unset): The IANA time zone whose days the dates are (an occurrence falls
            due at midnight there); default the company's, else `UTC`.
    """

    items: list[UpdateRecurringInvoiceJsonBodyItemsItem] | Unset = UNSET
    tax_rate_ids: list[int | Literal[""] | None | str] | Literal[""] | None | Unset = UNSET
    client_id: int | Literal[""] | None | str | Unset = UNSET
    category_id: int | Literal[""] | None | str | Unset = UNSET
    currency: Literal[""] | None | str | Unset = UNSET
    tax_type: Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyTaxTypeType0 = UNSET
    discount_type: Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyDiscountTypeType0 = UNSET
    discount_percentage: float | Literal[""] | None | str | Unset = UNSET
    discount_amount: float | Literal[""] | None | str | Unset = UNSET
    notes: Literal[""] | None | str | Unset = UNSET
    terms: Literal[""] | None | str | Unset = UNSET
    frequency: Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyFrequencyType0 = UNSET
    interval: int | Literal[""] | None | Unset = UNSET
    start_date: datetime.date | Literal[""] | None | Unset = UNSET
    end_date: datetime.date | Literal[""] | None | Unset = UNSET
    count: int | Literal[""] | None | Unset = UNSET
    due_days: int | Literal[""] | None | Unset = UNSET
    auto_publish: bool | BooleanInputType1 | BooleanInputType2 | Literal[""] | None | Unset = UNSET
    catch_up: Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyCatchUpType0 = UNSET
    status: Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyStatusType0 = UNSET
    timezone: Literal[""] | None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.items, Unset):
            items = []
            for items_item_data in self.items:
                items_item = items_item_data.to_dict()
                items.append(items_item)

        tax_rate_ids: list[int | Literal[""] | None | str] | Literal[""] | None | Unset
        if isinstance(self.tax_rate_ids, Unset):
            tax_rate_ids = UNSET
        elif isinstance(self.tax_rate_ids, list):
            tax_rate_ids = []
            for tax_rate_ids_type_0_item_data in self.tax_rate_ids:
                tax_rate_ids_type_0_item: int | Literal[""] | None | str
                tax_rate_ids_type_0_item = tax_rate_ids_type_0_item_data
                tax_rate_ids.append(tax_rate_ids_type_0_item)

        else:
            tax_rate_ids = self.tax_rate_ids

        client_id: int | Literal[""] | None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        category_id: int | Literal[""] | None | str | Unset
        if isinstance(self.category_id, Unset):
            category_id = UNSET
        else:
            category_id = self.category_id

        currency: Literal[""] | None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        tax_type: Literal[""] | None | str | Unset
        if isinstance(self.tax_type, Unset):
            tax_type = UNSET
        elif isinstance(self.tax_type, UpdateRecurringInvoiceJsonBodyTaxTypeType0):
            tax_type = self.tax_type.value
        else:
            tax_type = self.tax_type

        discount_type: Literal[""] | None | str | Unset
        if isinstance(self.discount_type, Unset):
            discount_type = UNSET
        elif isinstance(self.discount_type, UpdateRecurringInvoiceJsonBodyDiscountTypeType0):
            discount_type = self.discount_type.value
        else:
            discount_type = self.discount_type

        discount_percentage: float | Literal[""] | None | str | Unset
        if isinstance(self.discount_percentage, Unset):
            discount_percentage = UNSET
        else:
            discount_percentage = self.discount_percentage

        discount_amount: float | Literal[""] | None | str | Unset
        if isinstance(self.discount_amount, Unset):
            discount_amount = UNSET
        else:
            discount_amount = self.discount_amount

        notes: Literal[""] | None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        terms: Literal[""] | None | str | Unset
        if isinstance(self.terms, Unset):
            terms = UNSET
        else:
            terms = self.terms

        frequency: Literal[""] | None | str | Unset
        if isinstance(self.frequency, Unset):
            frequency = UNSET
        elif isinstance(self.frequency, UpdateRecurringInvoiceJsonBodyFrequencyType0):
            frequency = self.frequency.value
        else:
            frequency = self.frequency

        interval: int | Literal[""] | None | Unset
        if isinstance(self.interval, Unset):
            interval = UNSET
        else:
            interval = self.interval

        start_date: Literal[""] | None | str | Unset
        if isinstance(self.start_date, Unset):
            start_date = UNSET
        elif isinstance(self.start_date, datetime.date):
            start_date = self.start_date.isoformat()
        else:
            start_date = self.start_date

        end_date: Literal[""] | None | str | Unset
        if isinstance(self.end_date, Unset):
            end_date = UNSET
        elif isinstance(self.end_date, datetime.date):
            end_date = self.end_date.isoformat()
        else:
            end_date = self.end_date

        count: int | Literal[""] | None | Unset
        if isinstance(self.count, Unset):
            count = UNSET
        else:
            count = self.count

        due_days: int | Literal[""] | None | Unset
        if isinstance(self.due_days, Unset):
            due_days = UNSET
        else:
            due_days = self.due_days

        auto_publish: bool | int | Literal[""] | None | str | Unset
        if isinstance(self.auto_publish, Unset):
            auto_publish = UNSET
        elif isinstance(self.auto_publish, BooleanInputType1):
            auto_publish = self.auto_publish.value
        elif isinstance(self.auto_publish, BooleanInputType2):
            auto_publish = self.auto_publish.value
        else:
            auto_publish = self.auto_publish

        catch_up: Literal[""] | None | str | Unset
        if isinstance(self.catch_up, Unset):
            catch_up = UNSET
        elif isinstance(self.catch_up, UpdateRecurringInvoiceJsonBodyCatchUpType0):
            catch_up = self.catch_up.value
        else:
            catch_up = self.catch_up

        status: Literal[""] | None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, UpdateRecurringInvoiceJsonBodyStatusType0):
            status = self.status.value
        else:
            status = self.status

        timezone: Literal[""] | None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if items is not UNSET:
            field_dict["items"] = items
        if tax_rate_ids is not UNSET:
            field_dict["tax_rate_ids"] = tax_rate_ids
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if category_id is not UNSET:
            field_dict["category_id"] = category_id
        if currency is not UNSET:
            field_dict["currency"] = currency
        if tax_type is not UNSET:
            field_dict["tax_type"] = tax_type
        if discount_type is not UNSET:
            field_dict["discount_type"] = discount_type
        if discount_percentage is not UNSET:
            field_dict["discount_percentage"] = discount_percentage
        if discount_amount is not UNSET:
            field_dict["discount_amount"] = discount_amount
        if notes is not UNSET:
            field_dict["notes"] = notes
        if terms is not UNSET:
            field_dict["terms"] = terms
        if frequency is not UNSET:
            field_dict["frequency"] = frequency
        if interval is not UNSET:
            field_dict["interval"] = interval
        if start_date is not UNSET:
            field_dict["start_date"] = start_date
        if end_date is not UNSET:
            field_dict["end_date"] = end_date
        if count is not UNSET:
            field_dict["count"] = count
        if due_days is not UNSET:
            field_dict["due_days"] = due_days
        if auto_publish is not UNSET:
            field_dict["auto_publish"] = auto_publish
        if catch_up is not UNSET:
            field_dict["catch_up"] = catch_up
        if status is not UNSET:
            field_dict["status"] = status
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_recurring_invoice_json_body_items_item import UpdateRecurringInvoiceJsonBodyItemsItem  # noqa: PLC0415

        d = dict(src_dict)
        _items = d.pop("items", UNSET)
        items: list[UpdateRecurringInvoiceJsonBodyItemsItem] | Unset = UNSET
        if _items is not UNSET:
            items = []
            for items_item_data in _items:
                items_item = UpdateRecurringInvoiceJsonBodyItemsItem.from_dict(items_item_data)

                items.append(items_item)

        def _parse_tax_rate_ids(data: object) -> list[int | Literal[""] | None | str] | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tax_rate_ids_type_0 = []
                _tax_rate_ids_type_0 = data
                for tax_rate_ids_type_0_item_data in _tax_rate_ids_type_0:

                    def _parse_tax_rate_ids_type_0_item(data: object) -> int | Literal[""] | None | str:
                        if data is None:
                            return data
                        componentsschemas_blank_type_1 = cast(Literal[""], data)
                        if componentsschemas_blank_type_1 != "":
                            raise ValueError(
                                f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                            )
                        return componentsschemas_blank_type_1
                        return cast(int | Literal[""] | None | str, data)

                    tax_rate_ids_type_0_item = _parse_tax_rate_ids_type_0_item(tax_rate_ids_type_0_item_data)

                    tax_rate_ids_type_0.append(tax_rate_ids_type_0_item)

                return tax_rate_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(list[int | Literal[""] | None | str] | Literal[""] | None | Unset, data)

        tax_rate_ids = _parse_tax_rate_ids(d.pop("tax_rate_ids", UNSET))

        def _parse_client_id(data: object) -> int | Literal[""] | None | str | Unset:
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

        client_id = _parse_client_id(d.pop("client_id", UNSET))

        def _parse_category_id(data: object) -> int | Literal[""] | None | str | Unset:
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

        category_id = _parse_category_id(d.pop("category_id", UNSET))

        def _parse_currency(data: object) -> Literal[""] | None | str | Unset:
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

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_tax_type(data: object) -> Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyTaxTypeType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tax_type_type_0 = UpdateRecurringInvoiceJsonBodyTaxTypeType0(data)

                return tax_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyTaxTypeType0, data)

        tax_type = _parse_tax_type(d.pop("tax_type", UNSET))

        def _parse_discount_type(
            data: object,
        ) -> Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyDiscountTypeType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                discount_type_type_0 = UpdateRecurringInvoiceJsonBodyDiscountTypeType0(data)

                return discount_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyDiscountTypeType0, data)

        discount_type = _parse_discount_type(d.pop("discount_type", UNSET))

        def _parse_discount_percentage(data: object) -> float | Literal[""] | None | str | Unset:
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

        discount_percentage = _parse_discount_percentage(d.pop("discount_percentage", UNSET))

        def _parse_discount_amount(data: object) -> float | Literal[""] | None | str | Unset:
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

        discount_amount = _parse_discount_amount(d.pop("discount_amount", UNSET))

        def _parse_notes(data: object) -> Literal[""] | None | str | Unset:
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

        notes = _parse_notes(d.pop("notes", UNSET))

        def _parse_terms(data: object) -> Literal[""] | None | str | Unset:
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

        terms = _parse_terms(d.pop("terms", UNSET))

        def _parse_frequency(data: object) -> Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyFrequencyType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                frequency_type_0 = UpdateRecurringInvoiceJsonBodyFrequencyType0(data)

                return frequency_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyFrequencyType0, data)

        frequency = _parse_frequency(d.pop("frequency", UNSET))

        def _parse_interval(data: object) -> int | Literal[""] | None | Unset:
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
            return cast(int | Literal[""] | None | Unset, data)

        interval = _parse_interval(d.pop("interval", UNSET))

        def _parse_start_date(data: object) -> datetime.date | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_date_type_0 = datetime.date.fromisoformat(data)

                return start_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(datetime.date | Literal[""] | None | Unset, data)

        start_date = _parse_start_date(d.pop("start_date", UNSET))

        def _parse_end_date(data: object) -> datetime.date | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_date_type_0 = datetime.date.fromisoformat(data)

                return end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(datetime.date | Literal[""] | None | Unset, data)

        end_date = _parse_end_date(d.pop("end_date", UNSET))

        def _parse_count(data: object) -> int | Literal[""] | None | Unset:
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
            return cast(int | Literal[""] | None | Unset, data)

        count = _parse_count(d.pop("count", UNSET))

        def _parse_due_days(data: object) -> int | Literal[""] | None | Unset:
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
            return cast(int | Literal[""] | None | Unset, data)

        due_days = _parse_due_days(d.pop("due_days", UNSET))

        def _parse_auto_publish(
            data: object,
        ) -> bool | BooleanInputType1 | BooleanInputType2 | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_boolean_input_type_1 = BooleanInputType1(data)

                return componentsschemas_boolean_input_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, int):
                    raise TypeError()
                componentsschemas_boolean_input_type_2 = BooleanInputType2(data)

                return componentsschemas_boolean_input_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(bool | BooleanInputType1 | BooleanInputType2 | Literal[""] | None | Unset, data)

        auto_publish = _parse_auto_publish(d.pop("auto_publish", UNSET))

        def _parse_catch_up(data: object) -> Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyCatchUpType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                catch_up_type_0 = UpdateRecurringInvoiceJsonBodyCatchUpType0(data)

                return catch_up_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyCatchUpType0, data)

        catch_up = _parse_catch_up(d.pop("catch_up", UNSET))

        def _parse_status(data: object) -> Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyStatusType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = UpdateRecurringInvoiceJsonBodyStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateRecurringInvoiceJsonBodyStatusType0, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_timezone(data: object) -> Literal[""] | None | str | Unset:
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

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        update_recurring_invoice_json_body = cls(
            items=items,
            tax_rate_ids=tax_rate_ids,
            client_id=client_id,
            category_id=category_id,
            currency=currency,
            tax_type=tax_type,
            discount_type=discount_type,
            discount_percentage=discount_percentage,
            discount_amount=discount_amount,
            notes=notes,
            terms=terms,
            frequency=frequency,
            interval=interval,
            start_date=start_date,
            end_date=end_date,
            count=count,
            due_days=due_days,
            auto_publish=auto_publish,
            catch_up=catch_up,
            status=status,
            timezone=timezone,
        )

        update_recurring_invoice_json_body.additional_properties = d
        return update_recurring_invoice_json_body

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
