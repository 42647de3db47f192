from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.invoice_tax_type import InvoiceTaxType

if TYPE_CHECKING:
    from ..models.client_link import ClientLink
    from ..models.invoice_dates import InvoiceDates
    from ..models.invoice_status import InvoiceStatus
    from ..models.invoice_totals import InvoiceTotals
    from ..models.issued_parties import IssuedParties
    from ..models.line_item import LineItem
    from ..models.named import Named
    from ..models.tax_record import TaxRecord


T = TypeVar("T", bound="Invoice")


@_attrs_define
class Invoice:
    """An invoice (API.md §9): created, cloned, or converted from an estimate (`estimate_id`).

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        number (None | str): The invoice's number (`INV-2026-00042`), from a gapless series, given when it is issued:
            published, or set to an open status (API.md §18; the company's `number_formats.invoice`); `null` while not
            issued. An issued invoice keeps its lines, taxes, discount, adjustment, client, dates, currency and exchange
            rate, is never set back to Draft, cancelled by hand or deleted.
        status (InvoiceStatus): The shown status: a stored Due or Part Paid invoice whose due date is past shows as
            Overdue (3).
        client (Named): A linked record with its display name.
        project_id (int | None):
        category (Named): A linked record with its display name.
        dates (InvoiceDates):
        notes (None | str):
        terms (None | str):
        tax_type (InvoiceTaxType):
        currency (str): An ISO 4217 currency code (`EUR`).
        exchange_rate (None | str): The caller-given exchange rate to the company's currency, or `null`.
        totals (InvoiceTotals): Totals of an invoice: read-only, computed by the server, every amount with the bill
            currency's decimals; with what its payments and credit notes add up to and what is left to pay (API.md §14,
            §18).
        estimate_id (int | None):
        recurring_invoice_id (int | None): The recurring invoice that made it (API.md §20), or `null`.
        line_items (list[LineItem]):
        taxes (list[TaxRecord]):
        tags (list[str]): Tag titles, in order.
        client_link (ClientLink | None):
        parties (IssuedParties | None): The seller and the buyer as they were when the invoice was issued, which its
            page, PDF and email name ever after; `null` while a draft (its documents name them as they are now), and for an
            invoice issued before parties were kept.
    """

    id: int
    number: None | str
    status: InvoiceStatus
    client: Named
    project_id: int | None
    category: Named
    dates: InvoiceDates
    notes: None | str
    terms: None | str
    tax_type: InvoiceTaxType
    currency: str
    exchange_rate: None | str
    totals: InvoiceTotals
    estimate_id: int | None
    recurring_invoice_id: int | None
    line_items: list[LineItem]
    taxes: list[TaxRecord]
    tags: list[str]
    client_link: ClientLink | None
    parties: IssuedParties | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.client_link import ClientLink  # noqa: PLC0415
        from ..models.issued_parties import IssuedParties  # noqa: PLC0415

        id = self.id

        number: None | str
        number = self.number

        status = self.status.to_dict()

        client = self.client.to_dict()

        project_id: int | None
        project_id = self.project_id

        category = self.category.to_dict()

        dates = self.dates.to_dict()

        notes: None | str
        notes = self.notes

        terms: None | str
        terms = self.terms

        tax_type = self.tax_type.value

        currency = self.currency

        exchange_rate: None | str
        exchange_rate = self.exchange_rate

        totals = self.totals.to_dict()

        estimate_id: int | None
        estimate_id = self.estimate_id

        recurring_invoice_id: int | None
        recurring_invoice_id = self.recurring_invoice_id

        line_items = []
        for line_items_item_data in self.line_items:
            line_items_item = line_items_item_data.to_dict()
            line_items.append(line_items_item)

        taxes = []
        for taxes_item_data in self.taxes:
            taxes_item = taxes_item_data.to_dict()
            taxes.append(taxes_item)

        tags = self.tags

        client_link: dict[str, Any] | None
        if isinstance(self.client_link, ClientLink):
            client_link = self.client_link.to_dict()
        else:
            client_link = self.client_link

        parties: dict[str, Any] | None
        if isinstance(self.parties, IssuedParties):
            parties = self.parties.to_dict()
        else:
            parties = self.parties

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "number": number,
                "status": status,
                "client": client,
                "project_id": project_id,
                "category": category,
                "dates": dates,
                "notes": notes,
                "terms": terms,
                "tax_type": tax_type,
                "currency": currency,
                "exchange_rate": exchange_rate,
                "totals": totals,
                "estimate_id": estimate_id,
                "recurring_invoice_id": recurring_invoice_id,
                "line_items": line_items,
                "taxes": taxes,
                "tags": tags,
                "client_link": client_link,
                "parties": parties,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.client_link import ClientLink  # noqa: PLC0415
        from ..models.invoice_dates import InvoiceDates  # noqa: PLC0415
        from ..models.invoice_status import InvoiceStatus  # noqa: PLC0415
        from ..models.invoice_totals import InvoiceTotals  # noqa: PLC0415
        from ..models.issued_parties import IssuedParties  # noqa: PLC0415
        from ..models.line_item import LineItem  # noqa: PLC0415
        from ..models.named import Named  # noqa: PLC0415
        from ..models.tax_record import TaxRecord  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_number(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        number = _parse_number(d.pop("number"))

        status = InvoiceStatus.from_dict(d.pop("status"))

        client = Named.from_dict(d.pop("client"))

        def _parse_project_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        project_id = _parse_project_id(d.pop("project_id"))

        category = Named.from_dict(d.pop("category"))

        dates = InvoiceDates.from_dict(d.pop("dates"))

        def _parse_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notes = _parse_notes(d.pop("notes"))

        def _parse_terms(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        terms = _parse_terms(d.pop("terms"))

        tax_type = InvoiceTaxType(d.pop("tax_type"))

        currency = d.pop("currency")

        def _parse_exchange_rate(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        exchange_rate = _parse_exchange_rate(d.pop("exchange_rate"))

        totals = InvoiceTotals.from_dict(d.pop("totals"))

        def _parse_estimate_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        estimate_id = _parse_estimate_id(d.pop("estimate_id"))

        def _parse_recurring_invoice_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        recurring_invoice_id = _parse_recurring_invoice_id(d.pop("recurring_invoice_id"))

        line_items = []
        _line_items = d.pop("line_items")
        for line_items_item_data in _line_items:
            line_items_item = LineItem.from_dict(line_items_item_data)

            line_items.append(line_items_item)

        taxes = []
        _taxes = d.pop("taxes")
        for taxes_item_data in _taxes:
            taxes_item = TaxRecord.from_dict(taxes_item_data)

            taxes.append(taxes_item)

        tags = cast(list[str], d.pop("tags"))

        def _parse_client_link(data: object) -> ClientLink | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                client_link_type_0 = ClientLink.from_dict(data)

                return client_link_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClientLink | None, data)

        client_link = _parse_client_link(d.pop("client_link"))

        def _parse_parties(data: object) -> IssuedParties | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                parties_type_0 = IssuedParties.from_dict(data)

                return parties_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IssuedParties | None, data)

        parties = _parse_parties(d.pop("parties"))

        invoice = cls(
            id=id,
            number=number,
            status=status,
            client=client,
            project_id=project_id,
            category=category,
            dates=dates,
            notes=notes,
            terms=terms,
            tax_type=tax_type,
            currency=currency,
            exchange_rate=exchange_rate,
            totals=totals,
            estimate_id=estimate_id,
            recurring_invoice_id=recurring_invoice_id,
            line_items=line_items,
            taxes=taxes,
            tags=tags,
            client_link=client_link,
            parties=parties,
        )

        return invoice
