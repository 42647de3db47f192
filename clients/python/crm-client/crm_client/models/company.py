from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.address import Address
    from ..models.bank import Bank
    from ..models.company_dates import CompanyDates
    from ..models.company_number_formats import CompanyNumberFormats
    from ..models.peppol import Peppol


T = TypeVar("T", bound="Company")


@_attrs_define
class Company:
    """The company: the seller on every document (API.md §17).

    Attributes:
        legal_name (None | str):
        trading_name (str): The stored trading name, or `--company-name` when none was set.
        address (Address): A postal address; a line never set is `null`.
        vat_id (None | str):
        tax_id (None | str):
        registration (None | str):
        contact_name (None | str):
        email (None | str):
        phone (None | str):
        website (None | str):
        bank (Bank): A bank account.
        peppol (Peppol): A Peppol endpoint (ISO 6523 scheme and id).
        currency (str): ISO 4217; `EUR` when never set.
        timezone (None | str): IANA time zone; `null`: the server's.
        payment_terms (None | str):
        number_formats (CompanyNumberFormats): Each numbered kind's number format; its default where none was set
            (`INV-{YYYY}-{SEQ:5}`, `EST-{YYYY}-{SEQ:5}`, `CN-{YYYY}-{SEQ:5}`).
        reminders (list[int]): Payment reminder steps in days from the due date, in increasing order (empty: none).
        dates (CompanyDates):
    """

    legal_name: None | str
    trading_name: str
    address: Address
    vat_id: None | str
    tax_id: None | str
    registration: None | str
    contact_name: None | str
    email: None | str
    phone: None | str
    website: None | str
    bank: Bank
    peppol: Peppol
    currency: str
    timezone: None | str
    payment_terms: None | str
    number_formats: CompanyNumberFormats
    reminders: list[int]
    dates: CompanyDates

    def to_dict(self) -> dict[str, Any]:
        legal_name: None | str
        legal_name = self.legal_name

        trading_name = self.trading_name

        address = self.address.to_dict()

        vat_id: None | str
        vat_id = self.vat_id

        tax_id: None | str
        tax_id = self.tax_id

        registration: None | str
        registration = self.registration

        contact_name: None | str
        contact_name = self.contact_name

        email: None | str
        email = self.email

        phone: None | str
        phone = self.phone

        website: None | str
        website = self.website

        bank = self.bank.to_dict()

        peppol = self.peppol.to_dict()

        currency = self.currency

        timezone: None | str
        timezone = self.timezone

        payment_terms: None | str
        payment_terms = self.payment_terms

        number_formats = self.number_formats.to_dict()

        reminders = self.reminders

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "legal_name": legal_name,
                "trading_name": trading_name,
                "address": address,
                "vat_id": vat_id,
                "tax_id": tax_id,
                "registration": registration,
                "contact_name": contact_name,
                "email": email,
                "phone": phone,
                "website": website,
                "bank": bank,
                "peppol": peppol,
                "currency": currency,
                "timezone": timezone,
                "payment_terms": payment_terms,
                "number_formats": number_formats,
                "reminders": reminders,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address import Address  # noqa: PLC0415
        from ..models.bank import Bank  # noqa: PLC0415
        from ..models.company_dates import CompanyDates  # noqa: PLC0415
        from ..models.company_number_formats import CompanyNumberFormats  # noqa: PLC0415
        from ..models.peppol import Peppol  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_legal_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        legal_name = _parse_legal_name(d.pop("legal_name"))

        trading_name = d.pop("trading_name")

        address = Address.from_dict(d.pop("address"))

        def _parse_vat_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        vat_id = _parse_vat_id(d.pop("vat_id"))

        def _parse_tax_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tax_id = _parse_tax_id(d.pop("tax_id"))

        def _parse_registration(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        registration = _parse_registration(d.pop("registration"))

        def _parse_contact_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_name = _parse_contact_name(d.pop("contact_name"))

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        def _parse_phone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone = _parse_phone(d.pop("phone"))

        def _parse_website(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        website = _parse_website(d.pop("website"))

        bank = Bank.from_dict(d.pop("bank"))

        peppol = Peppol.from_dict(d.pop("peppol"))

        currency = d.pop("currency")

        def _parse_timezone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        timezone = _parse_timezone(d.pop("timezone"))

        def _parse_payment_terms(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        payment_terms = _parse_payment_terms(d.pop("payment_terms"))

        number_formats = CompanyNumberFormats.from_dict(d.pop("number_formats"))

        reminders = cast(list[int], d.pop("reminders"))

        dates = CompanyDates.from_dict(d.pop("dates"))

        company = cls(
            legal_name=legal_name,
            trading_name=trading_name,
            address=address,
            vat_id=vat_id,
            tax_id=tax_id,
            registration=registration,
            contact_name=contact_name,
            email=email,
            phone=phone,
            website=website,
            bank=bank,
            peppol=peppol,
            currency=currency,
            timezone=timezone,
            payment_terms=payment_terms,
            number_formats=number_formats,
            reminders=reminders,
            dates=dates,
        )

        return company
