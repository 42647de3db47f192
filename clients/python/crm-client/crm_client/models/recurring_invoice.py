from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.recurring_invoice_catch_up import RecurringInvoiceCatchUp
from ..models.recurring_invoice_frequency import RecurringInvoiceFrequency
from ..models.recurring_invoice_status import RecurringInvoiceStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.record_dates import RecordDates
    from ..models.recurring_invoice_items_item import RecurringInvoiceItemsItem


T = TypeVar("T", bound="RecurringInvoice")


@_attrs_define
class RecurringInvoice:
    """A recurring invoice (API.md §20): the template's fields as kept, the schedule, and where it stands.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        client_id (int): A record id: a positive 64-bit integer.
        category_id (int): A record id: a positive 64-bit integer.
        items (list[RecurringInvoiceItemsItem]): The template's lines as given (`PUT /api/invoices/{id}/items`'s fields;
            ids as numbers, amounts as text).
        frequency (RecurringInvoiceFrequency):
        interval (int):
        start_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        end_date (datetime.date | None):
        count (int | None):
        due_days (int):
        auto_publish (bool):
        catch_up (RecurringInvoiceCatchUp):
        status (RecurringInvoiceStatus):
        next_date (datetime.date | None): The next occurrence's date (read-only); `null` once finished.
        timezone (str):
        invoices_made (int): How many invoices it made (skipped occurrences not counted).
        creator_id (int | None):
        dates (RecordDates): Creation and last update times.
        currency (str | Unset): Template currency as given.
        tax_type (str | Unset): Template tax mode as given.
        tax_rate_ids (list[int] | Unset):
        discount_type (None | str | Unset): Template field as given.
        discount_percentage (None | str | Unset): Template field as given.
        discount_amount (None | str | Unset): Template field as given.
        notes (None | str | Unset): Template field as given.
        terms (None | str | Unset): Template field as given.
    """

    id: int
    client_id: int
    category_id: int
    items: list[RecurringInvoiceItemsItem]
    frequency: RecurringInvoiceFrequency
    interval: int
    start_date: datetime.date
    end_date: datetime.date | None
    count: int | None
    due_days: int
    auto_publish: bool
    catch_up: RecurringInvoiceCatchUp
    status: RecurringInvoiceStatus
    next_date: datetime.date | None
    timezone: str
    invoices_made: int
    creator_id: int | None
    dates: RecordDates
    currency: str | Unset = UNSET
    tax_type: str | Unset = UNSET
    tax_rate_ids: list[int] | Unset = UNSET
    discount_type: None | str | Unset = UNSET
    discount_percentage: None | str | Unset = UNSET
    discount_amount: None | str | Unset = UNSET
    notes: None | str | Unset = UNSET
    terms: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        client_id = self.client_id

        category_id = self.category_id

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        frequency = self.frequency.value

        interval = self.interval

        start_date = self.start_date.isoformat()

        end_date: None | str
        if isinstance(self.end_date, datetime.date):
            end_date = self.end_date.isoformat()
        else:
            end_date = self.end_date

        count: int | None
        count = self.count

        due_days = self.due_days

        auto_publish = self.auto_publish

        catch_up = self.catch_up.value

        status = self.status.value

        next_date: None | str
        if isinstance(self.next_date, datetime.date):
            next_date = self.next_date.isoformat()
        else:
            next_date = self.next_date

        timezone = self.timezone

        invoices_made = self.invoices_made

        creator_id: int | None
        creator_id = self.creator_id

        dates = self.dates.to_dict()

        currency = self.currency

        tax_type = self.tax_type

        tax_rate_ids: list[int] | Unset = UNSET
        if not isinstance(self.tax_rate_ids, Unset):
            tax_rate_ids = self.tax_rate_ids

        discount_type: None | str | Unset
        if isinstance(self.discount_type, Unset):
            discount_type = UNSET
        else:
            discount_type = self.discount_type

        discount_percentage: None | str | Unset
        if isinstance(self.discount_percentage, Unset):
            discount_percentage = UNSET
        else:
            discount_percentage = self.discount_percentage

        discount_amount: None | str | Unset
        if isinstance(self.discount_amount, Unset):
            discount_amount = UNSET
        else:
            discount_amount = self.discount_amount

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        terms: None | str | Unset
        if isinstance(self.terms, Unset):
            terms = UNSET
        else:
            terms = self.terms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "client_id": client_id,
                "category_id": category_id,
                "items": items,
                "frequency": frequency,
                "interval": interval,
                "start_date": start_date,
                "end_date": end_date,
                "count": count,
                "due_days": due_days,
                "auto_publish": auto_publish,
                "catch_up": catch_up,
                "status": status,
                "next_date": next_date,
                "timezone": timezone,
                "invoices_made": invoices_made,
                "creator_id": creator_id,
                "dates": dates,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency
        if tax_type is not UNSET:
            field_dict["tax_type"] = tax_type
        if tax_rate_ids is not UNSET:
            field_dict["tax_rate_ids"] = tax_rate_ids
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

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.record_dates import RecordDates  # noqa: PLC0415
        from ..models.recurring_invoice_items_item import RecurringInvoiceItemsItem  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        client_id = d.pop("client_id")

        category_id = d.pop("category_id")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = RecurringInvoiceItemsItem.from_dict(items_item_data)

            items.append(items_item)

        frequency = RecurringInvoiceFrequency(d.pop("frequency"))

        interval = d.pop("interval")

        start_date = datetime.date.fromisoformat(d.pop("start_date"))

        def _parse_end_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_date_type_0 = datetime.date.fromisoformat(data)

                return end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        end_date = _parse_end_date(d.pop("end_date"))

        def _parse_count(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        count = _parse_count(d.pop("count"))

        due_days = d.pop("due_days")

        auto_publish = d.pop("auto_publish")

        catch_up = RecurringInvoiceCatchUp(d.pop("catch_up"))

        status = RecurringInvoiceStatus(d.pop("status"))

        def _parse_next_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_date_type_0 = datetime.date.fromisoformat(data)

                return next_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        next_date = _parse_next_date(d.pop("next_date"))

        timezone = d.pop("timezone")

        invoices_made = d.pop("invoices_made")

        def _parse_creator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        creator_id = _parse_creator_id(d.pop("creator_id"))

        dates = RecordDates.from_dict(d.pop("dates"))

        currency = d.pop("currency", UNSET)

        tax_type = d.pop("tax_type", UNSET)

        tax_rate_ids = cast(list[int], d.pop("tax_rate_ids", UNSET))

        def _parse_discount_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        discount_type = _parse_discount_type(d.pop("discount_type", UNSET))

        def _parse_discount_percentage(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        discount_percentage = _parse_discount_percentage(d.pop("discount_percentage", UNSET))

        def _parse_discount_amount(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        discount_amount = _parse_discount_amount(d.pop("discount_amount", UNSET))

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        def _parse_terms(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        terms = _parse_terms(d.pop("terms", UNSET))

        recurring_invoice = cls(
            id=id,
            client_id=client_id,
            category_id=category_id,
            items=items,
            frequency=frequency,
            interval=interval,
            start_date=start_date,
            end_date=end_date,
            count=count,
            due_days=due_days,
            auto_publish=auto_publish,
            catch_up=catch_up,
            status=status,
            next_date=next_date,
            timezone=timezone,
            invoices_made=invoices_made,
            creator_id=creator_id,
            dates=dates,
            currency=currency,
            tax_type=tax_type,
            tax_rate_ids=tax_rate_ids,
            discount_type=discount_type,
            discount_percentage=discount_percentage,
            discount_amount=discount_amount,
            notes=notes,
            terms=terms,
        )

        return recurring_invoice
