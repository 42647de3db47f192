from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.estimate_status import EstimateStatus
from ..models.estimate_tax_type import EstimateTaxType

if TYPE_CHECKING:
    from ..models.bill_totals import BillTotals
    from ..models.client_link import ClientLink
    from ..models.client_response import ClientResponse
    from ..models.estimate_converted import EstimateConverted
    from ..models.estimate_dates import EstimateDates
    from ..models.line_item import LineItem
    from ..models.named import Named
    from ..models.tax_record import TaxRecord


T = TypeVar("T", bound="Estimate")


@_attrs_define
class Estimate:
    """An estimate with its line items and computed totals.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        number (None | str): The estimate's number (`EST-2026-00007`), given when it is first published, from the
            company's `number_formats.estimate` (API.md §18); `null` before.
        status (EstimateStatus): The shown status: a stored `new` whose expiry date is past shows as `expired`.
        client (Named): A linked record with its display name.
        project_id (int | None):
        category (Named): A linked record with its display name.
        dates (EstimateDates):
        notes (None | str):
        terms (None | str):
        tax_type (EstimateTaxType):
        currency (str): An ISO 4217 currency code (`EUR`).
        exchange_rate (None | str): The caller-given exchange rate to the company's currency, or `null`.
        totals (BillTotals): Totals of an estimate or invoice: read-only, computed by the server, every amount with the
            bill currency's decimals.
        converted (EstimateConverted):
        line_items (list[LineItem]):
        taxes (list[TaxRecord]):
        tags (list[str]): Tag titles, in order.
        client_link (ClientLink | None):
        client_response (ClientResponse | None): The client's answer from the estimate's page (`null` until the client
            answers). A later status change by the company keeps it.
    """

    id: int
    number: None | str
    status: EstimateStatus
    client: Named
    project_id: int | None
    category: Named
    dates: EstimateDates
    notes: None | str
    terms: None | str
    tax_type: EstimateTaxType
    currency: str
    exchange_rate: None | str
    totals: BillTotals
    converted: EstimateConverted
    line_items: list[LineItem]
    taxes: list[TaxRecord]
    tags: list[str]
    client_link: ClientLink | None
    client_response: ClientResponse | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.client_link import ClientLink  # noqa: PLC0415
        from ..models.client_response import ClientResponse  # noqa: PLC0415

        id = self.id

        number: None | str
        number = self.number

        status = self.status.value

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

        converted = self.converted.to_dict()

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

        client_response: dict[str, Any] | None
        if isinstance(self.client_response, ClientResponse):
            client_response = self.client_response.to_dict()
        else:
            client_response = self.client_response

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
                "converted": converted,
                "line_items": line_items,
                "taxes": taxes,
                "tags": tags,
                "client_link": client_link,
                "client_response": client_response,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bill_totals import BillTotals  # noqa: PLC0415
        from ..models.client_link import ClientLink  # noqa: PLC0415
        from ..models.client_response import ClientResponse  # noqa: PLC0415
        from ..models.estimate_converted import EstimateConverted  # noqa: PLC0415
        from ..models.estimate_dates import EstimateDates  # noqa: PLC0415
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

        status = EstimateStatus(d.pop("status"))

        client = Named.from_dict(d.pop("client"))

        def _parse_project_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        project_id = _parse_project_id(d.pop("project_id"))

        category = Named.from_dict(d.pop("category"))

        dates = EstimateDates.from_dict(d.pop("dates"))

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

        tax_type = EstimateTaxType(d.pop("tax_type"))

        currency = d.pop("currency")

        def _parse_exchange_rate(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        exchange_rate = _parse_exchange_rate(d.pop("exchange_rate"))

        totals = BillTotals.from_dict(d.pop("totals"))

        converted = EstimateConverted.from_dict(d.pop("converted"))

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

        def _parse_client_response(data: object) -> ClientResponse | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                client_response_type_0 = ClientResponse.from_dict(data)

                return client_response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClientResponse | None, data)

        client_response = _parse_client_response(d.pop("client_response"))

        estimate = cls(
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
            converted=converted,
            line_items=line_items,
            taxes=taxes,
            tags=tags,
            client_link=client_link,
            client_response=client_response,
        )

        return estimate
