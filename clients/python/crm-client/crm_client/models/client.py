from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.client_status import ClientStatus

if TYPE_CHECKING:
    from ..models.address import Address
    from ..models.peppol import Peppol
    from ..models.record_dates import RecordDates


T = TypeVar("T", bound="Client")


@_attrs_define
class Client:
    """A client: a buyer (API.md §17).

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        company_name (str):
        contact_name (None | str):
        contact_email (None | str):
        address (Address): A postal address; a line never set is `null`.
        vat_id (None | str):
        peppol (Peppol): A Peppol endpoint (ISO 6523 scheme and id).
        buyer_reference (None | str):
        currency (None | str):
        category_id (int): A record id: a positive 64-bit integer.
        status (ClientStatus):
        creator_id (int | None):
        dates (RecordDates): Creation and last update times.
    """

    id: int
    company_name: str
    contact_name: None | str
    contact_email: None | str
    address: Address
    vat_id: None | str
    peppol: Peppol
    buyer_reference: None | str
    currency: None | str
    category_id: int
    status: ClientStatus
    creator_id: int | None
    dates: RecordDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        company_name = self.company_name

        contact_name: None | str
        contact_name = self.contact_name

        contact_email: None | str
        contact_email = self.contact_email

        address = self.address.to_dict()

        vat_id: None | str
        vat_id = self.vat_id

        peppol = self.peppol.to_dict()

        buyer_reference: None | str
        buyer_reference = self.buyer_reference

        currency: None | str
        currency = self.currency

        category_id = self.category_id

        status = self.status.value

        creator_id: int | None
        creator_id = self.creator_id

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "company_name": company_name,
                "contact_name": contact_name,
                "contact_email": contact_email,
                "address": address,
                "vat_id": vat_id,
                "peppol": peppol,
                "buyer_reference": buyer_reference,
                "currency": currency,
                "category_id": category_id,
                "status": status,
                "creator_id": creator_id,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address import Address  # noqa: PLC0415
        from ..models.peppol import Peppol  # noqa: PLC0415
        from ..models.record_dates import RecordDates  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        company_name = d.pop("company_name")

        def _parse_contact_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_name = _parse_contact_name(d.pop("contact_name"))

        def _parse_contact_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_email = _parse_contact_email(d.pop("contact_email"))

        address = Address.from_dict(d.pop("address"))

        def _parse_vat_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        vat_id = _parse_vat_id(d.pop("vat_id"))

        peppol = Peppol.from_dict(d.pop("peppol"))

        def _parse_buyer_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        buyer_reference = _parse_buyer_reference(d.pop("buyer_reference"))

        def _parse_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        currency = _parse_currency(d.pop("currency"))

        category_id = d.pop("category_id")

        status = ClientStatus(d.pop("status"))

        def _parse_creator_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        creator_id = _parse_creator_id(d.pop("creator_id"))

        dates = RecordDates.from_dict(d.pop("dates"))

        client = cls(
            id=id,
            company_name=company_name,
            contact_name=contact_name,
            contact_email=contact_email,
            address=address,
            vat_id=vat_id,
            peppol=peppol,
            buyer_reference=buyer_reference,
            currency=currency,
            category_id=category_id,
            status=status,
            creator_id=creator_id,
            dates=dates,
        )

        return client
