from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.address_input import AddressInput
    from ..models.bank_input import BankInput
    from ..models.number_formats_input import NumberFormatsInput
    from ..models.peppol_input import PeppolInput


T = TypeVar("T", bound="UpdateCompanyJsonBody")


@_attrs_define
class UpdateCompanyJsonBody:
    """
    Attributes:
        legal_name (Literal[''] | None | str | Unset): The registered legal name: at most 250 characters, no HTML.
        trading_name (Literal[''] | None | str | Unset): The name it trades under (shown on pages, PDFs and emails);
            cleared, `--company-name` is shown.
        address (AddressInput | Literal[''] | None | Unset): The company's address.
        vat_id (Literal[''] | None | str | Unset): VAT identifier with its country prefix.
        tax_id (Literal[''] | None | str | Unset): Another tax registration (a German Steuernummer): at most 100
            characters.
        registration (Literal[''] | None | str | Unset): The commercial register and number: at most 250 characters.
        contact_name (Literal[''] | None | str | Unset): The seller's contact point (EN 16931 BT-41).
        email (Literal[''] | None | str | Unset): Contact email.
        phone (Literal[''] | None | str | Unset): Contact phone: at most 100 characters.
        website (Literal[''] | None | str | Unset): Website: at most 250 characters.
        bank (BankInput | Literal[''] | None | Unset): The bank account invoices name.
        peppol (Literal[''] | None | PeppolInput | Unset): The Peppol endpoint.
        currency (Literal[''] | None | str | Unset): Default currency of new documents (ISO 4217); cleared, `EUR`.
        timezone (Literal[''] | None | str | Unset): IANA time zone; cleared, the server's.
        payment_terms (Literal[''] | None | str | Unset): Payment terms shown on invoices: at most 65,535 characters.
        number_formats (Literal[''] | None | NumberFormatsInput | Unset): Each numbered kind's number format.
        reminders (list[int] | Literal[''] | None | Unset): Payment reminder steps in days from the due date (API.md
            §20): each issued, unpaid invoice's client gets one email per step, between 09:00 and 18:00 in the company's
            time zone; when several steps passed unsent, only the latest is sent. Sent empty: none.
    """

    legal_name: Literal[""] | None | str | Unset = UNSET
    trading_name: Literal[""] | None | str | Unset = UNSET
    address: AddressInput | Literal[""] | None | Unset = UNSET
    vat_id: Literal[""] | None | str | Unset = UNSET
    tax_id: Literal[""] | None | str | Unset = UNSET
    registration: Literal[""] | None | str | Unset = UNSET
    contact_name: Literal[""] | None | str | Unset = UNSET
    email: Literal[""] | None | str | Unset = UNSET
    phone: Literal[""] | None | str | Unset = UNSET
    website: Literal[""] | None | str | Unset = UNSET
    bank: BankInput | Literal[""] | None | Unset = UNSET
    peppol: Literal[""] | None | PeppolInput | Unset = UNSET
    currency: Literal[""] | None | str | Unset = UNSET
    timezone: Literal[""] | None | str | Unset = UNSET
    payment_terms: Literal[""] | None | str | Unset = UNSET
    number_formats: Literal[""] | None | NumberFormatsInput | Unset = UNSET
    reminders: list[int] | Literal[""] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.address_input import AddressInput  # noqa: PLC0415
        from ..models.bank_input import BankInput  # noqa: PLC0415
        from ..models.number_formats_input import NumberFormatsInput  # noqa: PLC0415
        from ..models.peppol_input import PeppolInput  # noqa: PLC0415

        legal_name: Literal[""] | None | str | Unset
        if isinstance(self.legal_name, Unset):
            legal_name = UNSET
        else:
            legal_name = self.legal_name

        trading_name: Literal[""] | None | str | Unset
        if isinstance(self.trading_name, Unset):
            trading_name = UNSET
        else:
            trading_name = self.trading_name

        address: dict[str, Any] | Literal[""] | None | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        elif isinstance(self.address, AddressInput):
            address = self.address.to_dict()
        else:
            address = self.address

        vat_id: Literal[""] | None | str | Unset
        if isinstance(self.vat_id, Unset):
            vat_id = UNSET
        else:
            vat_id = self.vat_id

        tax_id: Literal[""] | None | str | Unset
        if isinstance(self.tax_id, Unset):
            tax_id = UNSET
        else:
            tax_id = self.tax_id

        registration: Literal[""] | None | str | Unset
        if isinstance(self.registration, Unset):
            registration = UNSET
        else:
            registration = self.registration

        contact_name: Literal[""] | None | str | Unset
        if isinstance(self.contact_name, Unset):
            contact_name = UNSET
        else:
            contact_name = self.contact_name

        email: Literal[""] | None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        phone: Literal[""] | None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        website: Literal[""] | None | str | Unset
        if isinstance(self.website, Unset):
            website = UNSET
        else:
            website = self.website

        bank: dict[str, Any] | Literal[""] | None | Unset
        if isinstance(self.bank, Unset):
            bank = UNSET
        elif isinstance(self.bank, BankInput):
            bank = self.bank.to_dict()
        else:
            bank = self.bank

        peppol: dict[str, Any] | Literal[""] | None | Unset
        if isinstance(self.peppol, Unset):
            peppol = UNSET
        elif isinstance(self.peppol, PeppolInput):
            peppol = self.peppol.to_dict()
        else:
            peppol = self.peppol

        currency: Literal[""] | None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        timezone: Literal[""] | None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        payment_terms: Literal[""] | None | str | Unset
        if isinstance(self.payment_terms, Unset):
            payment_terms = UNSET
        else:
            payment_terms = self.payment_terms

        number_formats: dict[str, Any] | Literal[""] | None | Unset
        if isinstance(self.number_formats, Unset):
            number_formats = UNSET
        elif isinstance(self.number_formats, NumberFormatsInput):
            number_formats = self.number_formats.to_dict()
        else:
            number_formats = self.number_formats

        reminders: list[int] | Literal[""] | None | Unset
        if isinstance(self.reminders, Unset):
            reminders = UNSET
        elif isinstance(self.reminders, list):
            reminders = self.reminders

        else:
            reminders = self.reminders

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if legal_name is not UNSET:
            field_dict["legal_name"] = legal_name
        if trading_name is not UNSET:
            field_dict["trading_name"] = trading_name
        if address is not UNSET:
            field_dict["address"] = address
        if vat_id is not UNSET:
            field_dict["vat_id"] = vat_id
        if tax_id is not UNSET:
            field_dict["tax_id"] = tax_id
        if registration is not UNSET:
            field_dict["registration"] = registration
        if contact_name is not UNSET:
            field_dict["contact_name"] = contact_name
        if email is not UNSET:
            field_dict["email"] = email
        if phone is not UNSET:
            field_dict["phone"] = phone
        if website is not UNSET:
            field_dict["website"] = website
        if bank is not UNSET:
            field_dict["bank"] = bank
        if peppol is not UNSET:
            field_dict["peppol"] = peppol
        if currency is not UNSET:
            field_dict["currency"] = currency
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if payment_terms is not UNSET:
            field_dict["payment_terms"] = payment_terms
        if number_formats is not UNSET:
            field_dict["number_formats"] = number_formats
        if reminders is not UNSET:
            field_dict["reminders"] = reminders

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address_input import AddressInput  # noqa: PLC0415
        from ..models.bank_input import BankInput  # noqa: PLC0415
        from ..models.number_formats_input import NumberFormatsInput  # noqa: PLC0415
        from ..models.peppol_input import PeppolInput  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_legal_name(data: object) -> Literal[""] | None | str | Unset:
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

        legal_name = _parse_legal_name(d.pop("legal_name", UNSET))

        def _parse_trading_name(data: object) -> Literal[""] | None | str | Unset:
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

        trading_name = _parse_trading_name(d.pop("trading_name", UNSET))

        def _parse_address(data: object) -> AddressInput | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                address_type_0 = AddressInput.from_dict(data)

                return address_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(AddressInput | Literal[""] | None | Unset, data)

        address = _parse_address(d.pop("address", UNSET))

        def _parse_vat_id(data: object) -> Literal[""] | None | str | Unset:
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

        vat_id = _parse_vat_id(d.pop("vat_id", UNSET))

        def _parse_tax_id(data: object) -> Literal[""] | None | str | Unset:
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

        tax_id = _parse_tax_id(d.pop("tax_id", UNSET))

        def _parse_registration(data: object) -> Literal[""] | None | str | Unset:
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

        registration = _parse_registration(d.pop("registration", UNSET))

        def _parse_contact_name(data: object) -> Literal[""] | None | str | Unset:
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

        contact_name = _parse_contact_name(d.pop("contact_name", UNSET))

        def _parse_email(data: object) -> Literal[""] | None | str | Unset:
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

        email = _parse_email(d.pop("email", UNSET))

        def _parse_phone(data: object) -> Literal[""] | None | str | Unset:
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

        phone = _parse_phone(d.pop("phone", UNSET))

        def _parse_website(data: object) -> Literal[""] | None | str | Unset:
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

        website = _parse_website(d.pop("website", UNSET))

        def _parse_bank(data: object) -> BankInput | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                bank_type_0 = BankInput.from_dict(data)

                return bank_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(BankInput | Literal[""] | None | Unset, data)

        bank = _parse_bank(d.pop("bank", UNSET))

        def _parse_peppol(data: object) -> Literal[""] | None | PeppolInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                peppol_type_0 = PeppolInput.from_dict(data)

                return peppol_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | PeppolInput | Unset, data)

        peppol = _parse_peppol(d.pop("peppol", UNSET))

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

        def _parse_payment_terms(data: object) -> Literal[""] | None | str | Unset:
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

        payment_terms = _parse_payment_terms(d.pop("payment_terms", UNSET))

        def _parse_number_formats(data: object) -> Literal[""] | None | NumberFormatsInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                number_formats_type_0 = NumberFormatsInput.from_dict(data)

                return number_formats_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | NumberFormatsInput | Unset, data)

        number_formats = _parse_number_formats(d.pop("number_formats", UNSET))

        def _parse_reminders(data: object) -> list[int] | Literal[""] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                reminders_type_0 = cast(list[int], data)

                return reminders_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(list[int] | Literal[""] | None | Unset, data)

        reminders = _parse_reminders(d.pop("reminders", UNSET))

        update_company_json_body = cls(
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
        )

        update_company_json_body.additional_properties = d
        return update_company_json_body

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
