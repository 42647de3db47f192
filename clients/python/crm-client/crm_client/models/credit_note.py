from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.credit_note_tax_type import CreditNoteTaxType

if TYPE_CHECKING:
    from ..models.bill_totals import BillTotals
    from ..models.client_link import ClientLink
    from ..models.credit_note_dates import CreditNoteDates
    from ..models.issued_parties import IssuedParties
    from ..models.line_item import LineItem
    from ..models.named import Named
    from ..models.tax_record import TaxRecord


T = TypeVar("T", bound="CreditNote")


@_attrs_define
class CreditNote:
    """A credit note (API.md §18): the correction of an issued invoice, issued at once with its own number, never changed
    nor deleted (only its client link changes).

        Attributes:
            id (int): A record id: a positive 64-bit integer.
            number (str): Its number (`CN-2026-00001`), from the credit notes' gapless series (the company's
                `number_formats.credit_note`).
            invoice_id (int): A record id: a positive 64-bit integer.
            invoice_number (str): The credited invoice's number.
            client (Named): A linked record with its display name.
            project_id (int | None): The invoice's project.
            category (Named): A linked record with its display name.
            currency (str): An ISO 4217 currency code (`EUR`).
            date (datetime.date): A calendar date, `YYYY-MM-DD`.
            reason (str):
            tax_type (CreditNoteTaxType): The invoice's tax mode, which its lines follow.
            lines (list[LineItem]):
            taxes (list[TaxRecord]):
            totals (BillTotals): Totals of an estimate or invoice: read-only, computed by the server, every amount with the
                bill currency's decimals.
            applied_amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's
                decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
            refund_amount (str): An amount of an estimate, invoice or payment as decimal text with exactly its currency's
                decimals (API.md §18): none in `JPY` (`"1500"`), two in `EUR` (`"1250.00"`), three in `KWD` (`"12.500"`).
            creator_id (int | None): Who issued it (`null` once that user is gone).
            dates (CreditNoteDates):
            client_link (ClientLink | None):
            parties (IssuedParties): Who an issued document is from and to, kept with it when it was issued: a later change
                of the company's settings or of the client's record does not change what it states (API.md §18).
    """

    id: int
    number: str
    invoice_id: int
    invoice_number: str
    client: Named
    project_id: int | None
    category: Named
    currency: str
    date: datetime.date
    reason: str
    tax_type: CreditNoteTaxType
    lines: list[LineItem]
    taxes: list[TaxRecord]
    totals: BillTotals
    applied_amount: str
    refund_amount: str
    creator_id: int | None
    dates: CreditNoteDates
    client_link: ClientLink | None
    parties: IssuedParties

    def to_dict(self) -> dict[str, Any]:
        from ..models.client_link import ClientLink  # noqa: PLC0415

        id = self.id

        number = self.number

        invoice_id = self.invoice_id

        invoice_number = self.invoice_number

        client = self.client.to_dict()

        project_id: int | None
        project_id = self.project_id

        category = self.category.to_dict()

        currency = self.currency

        date = self.date.isoformat()

        reason = self.reason

        tax_type = self.tax_type.value

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)

        taxes = []
        for taxes_item_data in self.taxes:
            taxes_item = taxes_item_data.to_dict()
            taxes.append(taxes_item)

        totals = self.totals.to_dict()

        applied_amount = self.applied_amount

        refund_amount = self.refund_amount

        creator_id: int | None
        creator_id = self.creator_id

        dates = self.dates.to_dict()

        client_link: dict[str, Any] | None
        if isinstance(self.client_link, ClientLink):
            client_link = self.client_link.to_dict()
        else:
            client_link = self.client_link

        parties = self.parties.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "number": number,
                "invoice_id": invoice_id,
                "invoice_number": invoice_number,
                "client": client,
                "project_id": project_id,
                "category": category,
                "currency": currency,
                "date": date,
                "reason": reason,
                "tax_type": tax_type,
                "lines": lines,
                "taxes": taxes,
                "totals": totals,
                "applied_amount": applied_amount,
                "refund_amount": refund_amount,
                "creator_id": creator_id,
                "dates": dates,
                "client_link": client_link,
                "parties": parties,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bill_totals import BillTotals  # noqa: PLC0415
        from ..models.client_link import ClientLink  # noqa: PLC0415
        from ..models.credit_note_dates import CreditNoteDates  # noqa: PLC0415
        from ..models.issued_parties import IssuedParties  # noqa: PLC0415
        from ..models.line_item import LineItem  # noqa: PLC0415
        from ..models.named import Named  # noqa: PLC0415
        from ..models.tax_record import TaxRecord  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        number = d.pop("number")

        invoice_id = d.pop("invoice_id")

        invoice_number = d.pop("invoice_number")

        client = Named.from_dict(d.pop("client"))

        def _parse_project_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        project_id = _parse_project_id(d.pop("project_id"))

        category = Named.from_dict(d.pop("category"))

        currency = d.pop("currency")

        date = datetime.date.fromisoformat(d.pop("date"))

        reason = d.pop("reason")

        tax_type = CreditNoteTaxType(d.pop("tax_type"))

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in _lines:
            lines_item = LineItem.from_dict(lines_item_data)

            lines.append(lines_item)

        taxes = []
        _taxes = d.pop("taxes")
        for taxes_item_data in _taxes:
            taxes_item = TaxRecord.from_dict(taxes_item_data)

            taxes.append(taxes_item)

        totals = BillTotals.from_dict(d.pop("totals"))

        applied_amount = d.pop("applied_amount")

        refund_amount = d.pop("refund_amount")

        def _parse_creator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        creator_id = _parse_creator_id(d.pop("creator_id"))

        dates = CreditNoteDates.from_dict(d.pop("dates"))

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

        parties = IssuedParties.from_dict(d.pop("parties"))

        credit_note = cls(
            id=id,
            number=number,
            invoice_id=invoice_id,
            invoice_number=invoice_number,
            client=client,
            project_id=project_id,
            category=category,
            currency=currency,
            date=date,
            reason=reason,
            tax_type=tax_type,
            lines=lines,
            taxes=taxes,
            totals=totals,
            applied_amount=applied_amount,
            refund_amount=refund_amount,
            creator_id=creator_id,
            dates=dates,
            client_link=client_link,
            parties=parties,
        )

        return credit_note
