from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_recurring_invoice_data_body_auto_publish_type_0 import (
    CreateRecurringInvoiceDataBodyAutoPublishType0,
)
from ..models.create_recurring_invoice_data_body_catch_up_type_0 import CreateRecurringInvoiceDataBodyCatchUpType0
from ..models.create_recurring_invoice_data_body_discount_type_type_0 import (
    CreateRecurringInvoiceDataBodyDiscountTypeType0,
)
from ..models.create_recurring_invoice_data_body_frequency import CreateRecurringInvoiceDataBodyFrequency
from ..models.create_recurring_invoice_data_body_items_0_discount_type_type_0 import (
    CreateRecurringInvoiceDataBodyItems0DiscountTypeType0,
)
from ..models.create_recurring_invoice_data_body_status_type_0 import CreateRecurringInvoiceDataBodyStatusType0
from ..models.create_recurring_invoice_data_body_tax_type_type_0 import CreateRecurringInvoiceDataBodyTaxTypeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateRecurringInvoiceDataBody")


@_attrs_define
class CreateRecurringInvoiceDataBody:
    """
    Attributes:
        items0description (str): Text of at most 65535 characters once trimmed and normalised to NFC, HTML allowed, no
            control characters other than tab and line breaks; not blank.
        items0quantity (str): A positive quantity or rate as decimal text.
        items0rate (str): A positive quantity or rate as decimal text.
        client_id (str): A record id as decimal text.
        category_id (str): A record id as decimal text.
        frequency (CreateRecurringInvoiceDataBodyFrequency): How often: `weekly`, `monthly`, `quarterly` or `yearly`.
        start_date (datetime.date): A calendar date, `YYYY-MM-DD`.
        items0unit (Literal[''] | str | Unset): `items[0][unit]`: Unit of measure. Further lines use `items[1][…]`,
            `items[2][…]` and so on (ordered by index).
        items0long_description (Literal[''] | str | Unset): `items[0][long_description]`: Long description. Further
            lines use `items[1][…]`, `items[2][…]` and so on (ordered by index).
        items0tax_rate_id (Literal[''] | str | Unset): `items[0][tax_rate_id]`: Inline mode only: an enabled tax rate
            for the line. Further lines use `items[1][…]`, `items[2][…]` and so on (ordered by index).
        items0discount_type (CreateRecurringInvoiceDataBodyItems0DiscountTypeType0 | Literal[''] | Unset):
            `items[0][discount_type]`: Inline mode only: the line discount kind. Further lines use `items[1][…]`,
            `items[2][…]` and so on (ordered by index).
        items0discount_value (Literal[''] | str | Unset): `items[0][discount_value]`: Inline mode only: the fixed amount
            or the percentage (0-100) of the line discount. Further lines use `items[1][…]`, `items[2][…]` and so on
            (ordered by index).
        tax_rate_ids (list[Literal[''] | str] | Unset): `tax_rate_ids[]=1&tax_rate_ids[]=4`. Summary mode only. Send
            `tax_rate_ids[]=` (or `tax_rate_ids=`) with an empty value for none.
        timezone (Literal[''] | str | Unset): The IANA time zone whose days the dates are (an occurrence falls due at
            midnight there); default the company's, else `UTC`.
        status (CreateRecurringInvoiceDataBodyStatusType0 | Literal[''] | Unset): `active` (default) or `paused`;
            `finished` is set by the service once no occurrence is left.
        currency (Literal[''] | str | Unset): Template: the invoices' currency (ISO 4217); absent: the client's, else
            the company's.
        tax_type (CreateRecurringInvoiceDataBodyTaxTypeType0 | Literal[''] | Unset): Template: the tax mode (default
            `summary`).
        discount_type (CreateRecurringInvoiceDataBodyDiscountTypeType0 | Literal[''] | Unset): Template: the document
            discount, as `PATCH /api/invoices/{id}` takes `bill_discount_type`.
        discount_percentage (Literal[''] | str | Unset): Template: the discount's percentage (with `discount_type`
            `percentage`).
        discount_amount (Literal[''] | str | Unset): Template: the discount's amount (with `discount_type` `fixed`), in
            the currency's decimals.
        notes (Literal[''] | str | Unset): Template: notes (HTML allowed).
        terms (Literal[''] | str | Unset): Template: terms (HTML allowed).
        interval (Literal[''] | str | Unset): Every how many periods (1 to 1000, default 1).
        end_date (datetime.date | Literal[''] | Unset): No occurrence after this date (on or after `start_date`); not
            with `count`.
        count (Literal[''] | str | Unset): At most this many occurrences (1 to 10,000); not with `end_date`.
        due_days (Literal[''] | str | Unset): Each invoice is due this many days after its date (0 to 3650, default 30).
        auto_publish (CreateRecurringInvoiceDataBodyAutoPublishType0 | Literal[''] | Unset): Issue and email each
            invoice (with its number), or leave it a draft (default `false`).
        catch_up (CreateRecurringInvoiceDataBodyCatchUpType0 | Literal[''] | Unset): After downtime or a pause: make
            every missed occurrence (`all`) or only the latest (`latest`, the default; the others are skipped).
    """

    items0description: str
    items0quantity: str
    items0rate: str
    client_id: str
    category_id: str
    frequency: CreateRecurringInvoiceDataBodyFrequency
    start_date: datetime.date
    items0unit: Literal[""] | str | Unset = UNSET
    items0long_description: Literal[""] | str | Unset = UNSET
    items0tax_rate_id: Literal[""] | str | Unset = UNSET
    items0discount_type: CreateRecurringInvoiceDataBodyItems0DiscountTypeType0 | Literal[""] | Unset = UNSET
    items0discount_value: Literal[""] | str | Unset = UNSET
    tax_rate_ids: list[Literal[""] | str] | Unset = UNSET
    timezone: Literal[""] | str | Unset = UNSET
    status: CreateRecurringInvoiceDataBodyStatusType0 | Literal[""] | Unset = UNSET
    currency: Literal[""] | str | Unset = UNSET
    tax_type: CreateRecurringInvoiceDataBodyTaxTypeType0 | Literal[""] | Unset = UNSET
    discount_type: CreateRecurringInvoiceDataBodyDiscountTypeType0 | Literal[""] | Unset = UNSET
    discount_percentage: Literal[""] | str | Unset = UNSET
    discount_amount: Literal[""] | str | Unset = UNSET
    notes: Literal[""] | str | Unset = UNSET
    terms: Literal[""] | str | Unset = UNSET
    interval: Literal[""] | str | Unset = UNSET
    end_date: datetime.date | Literal[""] | Unset = UNSET
    count: Literal[""] | str | Unset = UNSET
    due_days: Literal[""] | str | Unset = UNSET
    auto_publish: CreateRecurringInvoiceDataBodyAutoPublishType0 | Literal[""] | Unset = UNSET
    catch_up: CreateRecurringInvoiceDataBodyCatchUpType0 | Literal[""] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items0description = self.items0description

        items0quantity = self.items0quantity

        items0rate = self.items0rate

        client_id = self.client_id

        category_id = self.category_id

        frequency = self.frequency.value

        start_date = self.start_date.isoformat()

        items0unit: Literal[""] | str | Unset
        if isinstance(self.items0unit, Unset):
            items0unit = UNSET
        else:
            items0unit = self.items0unit

        items0long_description: Literal[""] | str | Unset
        if isinstance(self.items0long_description, Unset):
            items0long_description = UNSET
        else:
            items0long_description = self.items0long_description

        items0tax_rate_id: Literal[""] | str | Unset
        if isinstance(self.items0tax_rate_id, Unset):
            items0tax_rate_id = UNSET
        else:
            items0tax_rate_id = self.items0tax_rate_id

        items0discount_type: Literal[""] | str | Unset
        if isinstance(self.items0discount_type, Unset):
            items0discount_type = UNSET
        elif isinstance(self.items0discount_type, CreateRecurringInvoiceDataBodyItems0DiscountTypeType0):
            items0discount_type = self.items0discount_type.value
        else:
            items0discount_type = self.items0discount_type

        items0discount_value: Literal[""] | str | Unset
        if isinstance(self.items0discount_value, Unset):
            items0discount_value = UNSET
        else:
            items0discount_value = self.items0discount_value

        tax_rate_ids: list[Literal[""] | str] | Unset = UNSET
        if not isinstance(self.tax_rate_ids, Unset):
            tax_rate_ids = []
            for tax_rate_ids_item_data in self.tax_rate_ids:
                tax_rate_ids_item: Literal[""] | str
                tax_rate_ids_item = tax_rate_ids_item_data
                tax_rate_ids.append(tax_rate_ids_item)

        timezone: Literal[""] | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        status: Literal[""] | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, CreateRecurringInvoiceDataBodyStatusType0):
            status = self.status.value
        else:
            status = self.status

        currency: Literal[""] | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        tax_type: Literal[""] | str | Unset
        if isinstance(self.tax_type, Unset):
            tax_type = UNSET
        elif isinstance(self.tax_type, CreateRecurringInvoiceDataBodyTaxTypeType0):
            tax_type = self.tax_type.value
        else:
            tax_type = self.tax_type

        discount_type: Literal[""] | str | Unset
        if isinstance(self.discount_type, Unset):
            discount_type = UNSET
        elif isinstance(self.discount_type, CreateRecurringInvoiceDataBodyDiscountTypeType0):
            discount_type = self.discount_type.value
        else:
            discount_type = self.discount_type

        discount_percentage: Literal[""] | str | Unset
        if isinstance(self.discount_percentage, Unset):
            discount_percentage = UNSET
        else:
            discount_percentage = self.discount_percentage

        discount_amount: Literal[""] | str | Unset
        if isinstance(self.discount_amount, Unset):
            discount_amount = UNSET
        else:
            discount_amount = self.discount_amount

        notes: Literal[""] | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        terms: Literal[""] | str | Unset
        if isinstance(self.terms, Unset):
            terms = UNSET
        else:
            terms = self.terms

        interval: Literal[""] | str | Unset
        if isinstance(self.interval, Unset):
            interval = UNSET
        else:
            interval = self.interval

        end_date: Literal[""] | str | Unset
        if isinstance(self.end_date, Unset):
            end_date = UNSET
        elif isinstance(self.end_date, datetime.date):
            end_date = self.end_date.isoformat()
        else:
            end_date = self.end_date

        count: Literal[""] | str | Unset
        if isinstance(self.count, Unset):
            count = UNSET
        else:
            count = self.count

        due_days: Literal[""] | str | Unset
        if isinstance(self.due_days, Unset):
            due_days = UNSET
        else:
            due_days = self.due_days

        auto_publish: Literal[""] | str | Unset
        if isinstance(self.auto_publish, Unset):
            auto_publish = UNSET
        elif isinstance(self.auto_publish, CreateRecurringInvoiceDataBodyAutoPublishType0):
            auto_publish = self.auto_publish.value
        else:
            auto_publish = self.auto_publish

        catch_up: Literal[""] | str | Unset
        if isinstance(self.catch_up, Unset):
            catch_up = UNSET
        elif isinstance(self.catch_up, CreateRecurringInvoiceDataBodyCatchUpType0):
            catch_up = self.catch_up.value
        else:
            catch_up = self.catch_up

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items[0][description]": items0description,
                "items[0][quantity]": items0quantity,
                "items[0][rate]": items0rate,
                "client_id": client_id,
                "category_id": category_id,
                "frequency": frequency,
                "start_date": start_date,
            }
        )
        if items0unit is not UNSET:
            field_dict["items[0][unit]"] = items0unit
        if items0long_description is not UNSET:
            field_dict["items[0][long_description]"] = items0long_description
        if items0tax_rate_id is not UNSET:
            field_dict["items[0][tax_rate_id]"] = items0tax_rate_id
        if items0discount_type is not UNSET:
            field_dict["items[0][discount_type]"] = items0discount_type
        if items0discount_value is not UNSET:
            field_dict["items[0][discount_value]"] = items0discount_value
        if tax_rate_ids is not UNSET:
            field_dict["tax_rate_ids[]"] = tax_rate_ids
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if status is not UNSET:
            field_dict["status"] = status
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
        if interval is not UNSET:
            field_dict["interval"] = interval
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

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        items0description = d.pop("items[0][description]")

        items0quantity = d.pop("items[0][quantity]")

        items0rate = d.pop("items[0][rate]")

        client_id = d.pop("client_id")

        category_id = d.pop("category_id")

        frequency = CreateRecurringInvoiceDataBodyFrequency(d.pop("frequency"))

        start_date = datetime.date.fromisoformat(d.pop("start_date"))

        def _parse_items0unit(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            items0unit_type_1 = cast(Literal[""], data)
            if items0unit_type_1 != "":
                raise ValueError(f"items[0][unit]_type_1 must match const '', got '{items0unit_type_1}'")
            return items0unit_type_1
            return cast(Literal[""] | str | Unset, data)

        items0unit = _parse_items0unit(d.pop("items[0][unit]", UNSET))

        def _parse_items0long_description(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            items0long_description_type_1 = cast(Literal[""], data)
            if items0long_description_type_1 != "":
                raise ValueError(
                    f"items[0][long_description]_type_1 must match const '', got '{items0long_description_type_1}'"
                )
            return items0long_description_type_1
            return cast(Literal[""] | str | Unset, data)

        items0long_description = _parse_items0long_description(d.pop("items[0][long_description]", UNSET))

        def _parse_items0tax_rate_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            items0tax_rate_id_type_1 = cast(Literal[""], data)
            if items0tax_rate_id_type_1 != "":
                raise ValueError(f"items[0][tax_rate_id]_type_1 must match const '', got '{items0tax_rate_id_type_1}'")
            return items0tax_rate_id_type_1
            return cast(Literal[""] | str | Unset, data)

        items0tax_rate_id = _parse_items0tax_rate_id(d.pop("items[0][tax_rate_id]", UNSET))

        def _parse_items0discount_type(
            data: object,
        ) -> CreateRecurringInvoiceDataBodyItems0DiscountTypeType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                items0discount_type_type_0 = CreateRecurringInvoiceDataBodyItems0DiscountTypeType0(data)

                return items0discount_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            items0discount_type_type_1 = cast(Literal[""], data)
            if items0discount_type_type_1 != "":
                raise ValueError(
                    f"items[0][discount_type]_type_1 must match const '', got '{items0discount_type_type_1}'"
                )
            return items0discount_type_type_1

        items0discount_type = _parse_items0discount_type(d.pop("items[0][discount_type]", UNSET))

        def _parse_items0discount_value(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            items0discount_value_type_1 = cast(Literal[""], data)
            if items0discount_value_type_1 != "":
                raise ValueError(
                    f"items[0][discount_value]_type_1 must match const '', got '{items0discount_value_type_1}'"
                )
            return items0discount_value_type_1
            return cast(Literal[""] | str | Unset, data)

        items0discount_value = _parse_items0discount_value(d.pop("items[0][discount_value]", UNSET))

        _tax_rate_ids = d.pop("tax_rate_ids[]", UNSET)
        tax_rate_ids: list[Literal[""] | str] | Unset = UNSET
        if _tax_rate_ids is not UNSET:
            tax_rate_ids = []
            for tax_rate_ids_item_data in _tax_rate_ids:

                def _parse_tax_rate_ids_item(data: object) -> Literal[""] | str:
                    tax_rate_ids_item_type_1 = cast(Literal[""], data)
                    if tax_rate_ids_item_type_1 != "":
                        raise ValueError(
                            f"tax_rate_ids[]_item_type_1 must match const '', got '{tax_rate_ids_item_type_1}'"
                        )
                    return tax_rate_ids_item_type_1
                    return cast(Literal[""] | str, data)

                tax_rate_ids_item = _parse_tax_rate_ids_item(tax_rate_ids_item_data)

                tax_rate_ids.append(tax_rate_ids_item)

        def _parse_timezone(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            timezone_type_1 = cast(Literal[""], data)
            if timezone_type_1 != "":
                raise ValueError(f"timezone_type_1 must match const '', got '{timezone_type_1}'")
            return timezone_type_1
            return cast(Literal[""] | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        def _parse_status(data: object) -> CreateRecurringInvoiceDataBodyStatusType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = CreateRecurringInvoiceDataBodyStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            status_type_1 = cast(Literal[""], data)
            if status_type_1 != "":
                raise ValueError(f"status_type_1 must match const '', got '{status_type_1}'")
            return status_type_1

        status = _parse_status(d.pop("status", UNSET))

        def _parse_currency(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            currency_type_1 = cast(Literal[""], data)
            if currency_type_1 != "":
                raise ValueError(f"currency_type_1 must match const '', got '{currency_type_1}'")
            return currency_type_1
            return cast(Literal[""] | str | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_tax_type(data: object) -> CreateRecurringInvoiceDataBodyTaxTypeType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tax_type_type_0 = CreateRecurringInvoiceDataBodyTaxTypeType0(data)

                return tax_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            tax_type_type_1 = cast(Literal[""], data)
            if tax_type_type_1 != "":
                raise ValueError(f"tax_type_type_1 must match const '', got '{tax_type_type_1}'")
            return tax_type_type_1

        tax_type = _parse_tax_type(d.pop("tax_type", UNSET))

        def _parse_discount_type(data: object) -> CreateRecurringInvoiceDataBodyDiscountTypeType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                discount_type_type_0 = CreateRecurringInvoiceDataBodyDiscountTypeType0(data)

                return discount_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            discount_type_type_1 = cast(Literal[""], data)
            if discount_type_type_1 != "":
                raise ValueError(f"discount_type_type_1 must match const '', got '{discount_type_type_1}'")
            return discount_type_type_1

        discount_type = _parse_discount_type(d.pop("discount_type", UNSET))

        def _parse_discount_percentage(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            discount_percentage_type_1 = cast(Literal[""], data)
            if discount_percentage_type_1 != "":
                raise ValueError(f"discount_percentage_type_1 must match const '', got '{discount_percentage_type_1}'")
            return discount_percentage_type_1
            return cast(Literal[""] | str | Unset, data)

        discount_percentage = _parse_discount_percentage(d.pop("discount_percentage", UNSET))

        def _parse_discount_amount(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            discount_amount_type_1 = cast(Literal[""], data)
            if discount_amount_type_1 != "":
                raise ValueError(f"discount_amount_type_1 must match const '', got '{discount_amount_type_1}'")
            return discount_amount_type_1
            return cast(Literal[""] | str | Unset, data)

        discount_amount = _parse_discount_amount(d.pop("discount_amount", UNSET))

        def _parse_notes(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            notes_type_1 = cast(Literal[""], data)
            if notes_type_1 != "":
                raise ValueError(f"notes_type_1 must match const '', got '{notes_type_1}'")
            return notes_type_1
            return cast(Literal[""] | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        def _parse_terms(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            terms_type_1 = cast(Literal[""], data)
            if terms_type_1 != "":
                raise ValueError(f"terms_type_1 must match const '', got '{terms_type_1}'")
            return terms_type_1
            return cast(Literal[""] | str | Unset, data)

        terms = _parse_terms(d.pop("terms", UNSET))

        def _parse_interval(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            interval_type_1 = cast(Literal[""], data)
            if interval_type_1 != "":
                raise ValueError(f"interval_type_1 must match const '', got '{interval_type_1}'")
            return interval_type_1
            return cast(Literal[""] | str | Unset, data)

        interval = _parse_interval(d.pop("interval", UNSET))

        def _parse_end_date(data: object) -> datetime.date | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_date_type_0 = datetime.date.fromisoformat(data)

                return end_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            end_date_type_1 = cast(Literal[""], data)
            if end_date_type_1 != "":
                raise ValueError(f"end_date_type_1 must match const '', got '{end_date_type_1}'")
            return end_date_type_1

        end_date = _parse_end_date(d.pop("end_date", UNSET))

        def _parse_count(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            count_type_1 = cast(Literal[""], data)
            if count_type_1 != "":
                raise ValueError(f"count_type_1 must match const '', got '{count_type_1}'")
            return count_type_1
            return cast(Literal[""] | str | Unset, data)

        count = _parse_count(d.pop("count", UNSET))

        def _parse_due_days(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            due_days_type_1 = cast(Literal[""], data)
            if due_days_type_1 != "":
                raise ValueError(f"due_days_type_1 must match const '', got '{due_days_type_1}'")
            return due_days_type_1
            return cast(Literal[""] | str | Unset, data)

        due_days = _parse_due_days(d.pop("due_days", UNSET))

        def _parse_auto_publish(data: object) -> CreateRecurringInvoiceDataBodyAutoPublishType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                auto_publish_type_0 = CreateRecurringInvoiceDataBodyAutoPublishType0(data)

                return auto_publish_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            auto_publish_type_1 = cast(Literal[""], data)
            if auto_publish_type_1 != "":
                raise ValueError(f"auto_publish_type_1 must match const '', got '{auto_publish_type_1}'")
            return auto_publish_type_1

        auto_publish = _parse_auto_publish(d.pop("auto_publish", UNSET))

        def _parse_catch_up(data: object) -> CreateRecurringInvoiceDataBodyCatchUpType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                catch_up_type_0 = CreateRecurringInvoiceDataBodyCatchUpType0(data)

                return catch_up_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            catch_up_type_1 = cast(Literal[""], data)
            if catch_up_type_1 != "":
                raise ValueError(f"catch_up_type_1 must match const '', got '{catch_up_type_1}'")
            return catch_up_type_1

        catch_up = _parse_catch_up(d.pop("catch_up", UNSET))

        create_recurring_invoice_data_body = cls(
            items0description=items0description,
            items0quantity=items0quantity,
            items0rate=items0rate,
            client_id=client_id,
            category_id=category_id,
            frequency=frequency,
            start_date=start_date,
            items0unit=items0unit,
            items0long_description=items0long_description,
            items0tax_rate_id=items0tax_rate_id,
            items0discount_type=items0discount_type,
            items0discount_value=items0discount_value,
            tax_rate_ids=tax_rate_ids,
            timezone=timezone,
            status=status,
            currency=currency,
            tax_type=tax_type,
            discount_type=discount_type,
            discount_percentage=discount_percentage,
            discount_amount=discount_amount,
            notes=notes,
            terms=terms,
            interval=interval,
            end_date=end_date,
            count=count,
            due_days=due_days,
            auto_publish=auto_publish,
            catch_up=catch_up,
        )

        create_recurring_invoice_data_body.additional_properties = d
        return create_recurring_invoice_data_body

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
