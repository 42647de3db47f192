from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateCompanyFilesBody")


@_attrs_define
class UpdateCompanyFilesBody:
    """
    Attributes:
        legal_name (Literal[''] | str | Unset): The registered legal name: at most 250 characters, no HTML.
        trading_name (Literal[''] | str | Unset): The name it trades under (shown on pages, PDFs and emails); cleared,
            `--company-name` is shown.
        address (Literal[''] | Unset):
        addressline1 (Literal[''] | str | Unset): First line (street and number): at most 250 characters, one line.
        addressline2 (Literal[''] | str | Unset): Second line.
        addresscity (Literal[''] | str | Unset): City.
        addresspostcode (Literal[''] | str | Unset): Postal code: at most 100 characters.
        addressregion (Literal[''] | str | Unset): Region, state or province.
        addresscountry (Literal[''] | str | Unset): ISO 3166-1 alpha-2 country code.
        vat_id (Literal[''] | str | Unset): VAT identifier with its country prefix.
        tax_id (Literal[''] | str | Unset): Another tax registration (a German Steuernummer): at most 100 characters.
        registration (Literal[''] | str | Unset): The commercial register and number: at most 250 characters.
        contact_name (Literal[''] | str | Unset): The seller's contact point (EN 16931 BT-41).
        email (Literal[''] | str | Unset): Contact email.
        phone (Literal[''] | str | Unset): Contact phone: at most 100 characters.
        website (Literal[''] | str | Unset): Website: at most 250 characters.
        bank (Literal[''] | Unset):
        bankiban (Literal[''] | str | Unset): IBAN, checked by its mod-97 digits.
        bankbic (Literal[''] | str | Unset): BIC.
        bankaccount_name (Literal[''] | str | Unset): Account holder: at most 250 characters, no HTML, one line.
        peppol (Literal[''] | Unset):
        peppolscheme (Literal[''] | str | Unset): ISO 6523 scheme code.
        peppolid (Literal[''] | str | Unset): The identifier within the scheme: at most 250 characters, one line.
        currency (Literal[''] | str | Unset): Default currency of new documents (ISO 4217); cleared, `EUR`.
        timezone (Literal[''] | str | Unset): IANA time zone; cleared, the server's.
        payment_terms (Literal[''] | str | Unset): Payment terms shown on invoices: at most 65,535 characters.
        number_formats (Literal[''] | Unset):
        number_formatsinvoice (Literal[''] | str | Unset): Invoices (default `INV-{YYYY}-{SEQ:5}`).
        number_formatsestimate (Literal[''] | str | Unset): Estimates (default `EST-{YYYY}-{SEQ:5}`).
        number_formatscredit_note (Literal[''] | str | Unset): Credit notes (default `CN-{YYYY}-{SEQ:5}`).
        reminders (list[int] | Literal[''] | Unset): Payment reminder steps in days from the due date (API.md §20): each
            issued, unpaid invoice's client gets one email per step, between 09:00 and 18:00 in the company's time zone;
            when several steps passed unsent, only the latest is sent. Sent empty: none.
    """

    legal_name: Literal[""] | str | Unset = UNSET
    trading_name: Literal[""] | str | Unset = UNSET
    address: Literal[""] | Unset = UNSET
    addressline1: Literal[""] | str | Unset = UNSET
    addressline2: Literal[""] | str | Unset = UNSET
    addresscity: Literal[""] | str | Unset = UNSET
    addresspostcode: Literal[""] | str | Unset = UNSET
    addressregion: Literal[""] | str | Unset = UNSET
    addresscountry: Literal[""] | str | Unset = UNSET
    vat_id: Literal[""] | str | Unset = UNSET
    tax_id: Literal[""] | str | Unset = UNSET
    registration: Literal[""] | str | Unset = UNSET
    contact_name: Literal[""] | str | Unset = UNSET
    email: Literal[""] | str | Unset = UNSET
    phone: Literal[""] | str | Unset = UNSET
    website: Literal[""] | str | Unset = UNSET
    bank: Literal[""] | Unset = UNSET
    bankiban: Literal[""] | str | Unset = UNSET
    bankbic: Literal[""] | str | Unset = UNSET
    bankaccount_name: Literal[""] | str | Unset = UNSET
    peppol: Literal[""] | Unset = UNSET
    peppolscheme: Literal[""] | str | Unset = UNSET
    peppolid: Literal[""] | str | Unset = UNSET
    currency: Literal[""] | str | Unset = UNSET
    timezone: Literal[""] | str | Unset = UNSET
    payment_terms: Literal[""] | str | Unset = UNSET
    number_formats: Literal[""] | Unset = UNSET
    number_formatsinvoice: Literal[""] | str | Unset = UNSET
    number_formatsestimate: Literal[""] | str | Unset = UNSET
    number_formatscredit_note: Literal[""] | str | Unset = UNSET
    reminders: list[int] | Literal[""] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        legal_name: Literal[""] | str | Unset
        if isinstance(self.legal_name, Unset):
            legal_name = UNSET
        else:
            legal_name = self.legal_name

        trading_name: Literal[""] | str | Unset
        if isinstance(self.trading_name, Unset):
            trading_name = UNSET
        else:
            trading_name = self.trading_name

        address = self.address

        addressline1: Literal[""] | str | Unset
        if isinstance(self.addressline1, Unset):
            addressline1 = UNSET
        else:
            addressline1 = self.addressline1

        addressline2: Literal[""] | str | Unset
        if isinstance(self.addressline2, Unset):
            addressline2 = UNSET
        else:
            addressline2 = self.addressline2

        addresscity: Literal[""] | str | Unset
        if isinstance(self.addresscity, Unset):
            addresscity = UNSET
        else:
            addresscity = self.addresscity

        addresspostcode: Literal[""] | str | Unset
        if isinstance(self.addresspostcode, Unset):
            addresspostcode = UNSET
        else:
            addresspostcode = self.addresspostcode

        addressregion: Literal[""] | str | Unset
        if isinstance(self.addressregion, Unset):
            addressregion = UNSET
        else:
            addressregion = self.addressregion

        addresscountry: Literal[""] | str | Unset
        if isinstance(self.addresscountry, Unset):
            addresscountry = UNSET
        else:
            addresscountry = self.addresscountry

        vat_id: Literal[""] | str | Unset
        if isinstance(self.vat_id, Unset):
            vat_id = UNSET
        else:
            vat_id = self.vat_id

        tax_id: Literal[""] | str | Unset
        if isinstance(self.tax_id, Unset):
            tax_id = UNSET
        else:
            tax_id = self.tax_id

        registration: Literal[""] | str | Unset
        if isinstance(self.registration, Unset):
            registration = UNSET
        else:
            registration = self.registration

        contact_name: Literal[""] | str | Unset
        if isinstance(self.contact_name, Unset):
            contact_name = UNSET
        else:
            contact_name = self.contact_name

        email: Literal[""] | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        phone: Literal[""] | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        website: Literal[""] | str | Unset
        if isinstance(self.website, Unset):
            website = UNSET
        else:
            website = self.website

        bank = self.bank

        bankiban: Literal[""] | str | Unset
        if isinstance(self.bankiban, Unset):
            bankiban = UNSET
        else:
            bankiban = self.bankiban

        bankbic: Literal[""] | str | Unset
        if isinstance(self.bankbic, Unset):
            bankbic = UNSET
        else:
            bankbic = self.bankbic

        bankaccount_name: Literal[""] | str | Unset
        if isinstance(self.bankaccount_name, Unset):
            bankaccount_name = UNSET
        else:
            bankaccount_name = self.bankaccount_name

        peppol = self.peppol

        peppolscheme: Literal[""] | str | Unset
        if isinstance(self.peppolscheme, Unset):
            peppolscheme = UNSET
        else:
            peppolscheme = self.peppolscheme

        peppolid: Literal[""] | str | Unset
        if isinstance(self.peppolid, Unset):
            peppolid = UNSET
        else:
            peppolid = self.peppolid

        currency: Literal[""] | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        timezone: Literal[""] | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        payment_terms: Literal[""] | str | Unset
        if isinstance(self.payment_terms, Unset):
            payment_terms = UNSET
        else:
            payment_terms = self.payment_terms

        number_formats = self.number_formats

        number_formatsinvoice: Literal[""] | str | Unset
        if isinstance(self.number_formatsinvoice, Unset):
            number_formatsinvoice = UNSET
        else:
            number_formatsinvoice = self.number_formatsinvoice

        number_formatsestimate: Literal[""] | str | Unset
        if isinstance(self.number_formatsestimate, Unset):
            number_formatsestimate = UNSET
        else:
            number_formatsestimate = self.number_formatsestimate

        number_formatscredit_note: Literal[""] | str | Unset
        if isinstance(self.number_formatscredit_note, Unset):
            number_formatscredit_note = UNSET
        else:
            number_formatscredit_note = self.number_formatscredit_note

        reminders: list[int] | Literal[""] | Unset
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
        if addressline1 is not UNSET:
            field_dict["address[line1]"] = addressline1
        if addressline2 is not UNSET:
            field_dict["address[line2]"] = addressline2
        if addresscity is not UNSET:
            field_dict["address[city]"] = addresscity
        if addresspostcode is not UNSET:
            field_dict["address[postcode]"] = addresspostcode
        if addressregion is not UNSET:
            field_dict["address[region]"] = addressregion
        if addresscountry is not UNSET:
            field_dict["address[country]"] = addresscountry
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
        if bankiban is not UNSET:
            field_dict["bank[iban]"] = bankiban
        if bankbic is not UNSET:
            field_dict["bank[bic]"] = bankbic
        if bankaccount_name is not UNSET:
            field_dict["bank[account_name]"] = bankaccount_name
        if peppol is not UNSET:
            field_dict["peppol"] = peppol
        if peppolscheme is not UNSET:
            field_dict["peppol[scheme]"] = peppolscheme
        if peppolid is not UNSET:
            field_dict["peppol[id]"] = peppolid
        if currency is not UNSET:
            field_dict["currency"] = currency
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if payment_terms is not UNSET:
            field_dict["payment_terms"] = payment_terms
        if number_formats is not UNSET:
            field_dict["number_formats"] = number_formats
        if number_formatsinvoice is not UNSET:
            field_dict["number_formats[invoice]"] = number_formatsinvoice
        if number_formatsestimate is not UNSET:
            field_dict["number_formats[estimate]"] = number_formatsestimate
        if number_formatscredit_note is not UNSET:
            field_dict["number_formats[credit_note]"] = number_formatscredit_note
        if reminders is not UNSET:
            field_dict["reminders"] = reminders

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.legal_name, Unset):
            if isinstance(self.legal_name, str):
                files.append(("legal_name", (None, str(self.legal_name).encode(), "text/plain")))
            else:
                files.append(("legal_name", (None, self.legal_name, "text/plain")))

        if not isinstance(self.trading_name, Unset):
            if isinstance(self.trading_name, str):
                files.append(("trading_name", (None, str(self.trading_name).encode(), "text/plain")))
            else:
                files.append(("trading_name", (None, self.trading_name, "text/plain")))

        if not isinstance(self.address, Unset):
            files.append(("address", (None, self.address, "text/plain")))

        if not isinstance(self.addressline1, Unset):
            if isinstance(self.addressline1, str):
                files.append(("address[line1]", (None, str(self.addressline1).encode(), "text/plain")))
            else:
                files.append(("address[line1]", (None, self.addressline1, "text/plain")))

        if not isinstance(self.addressline2, Unset):
            if isinstance(self.addressline2, str):
                files.append(("address[line2]", (None, str(self.addressline2).encode(), "text/plain")))
            else:
                files.append(("address[line2]", (None, self.addressline2, "text/plain")))

        if not isinstance(self.addresscity, Unset):
            if isinstance(self.addresscity, str):
                files.append(("address[city]", (None, str(self.addresscity).encode(), "text/plain")))
            else:
                files.append(("address[city]", (None, self.addresscity, "text/plain")))

        if not isinstance(self.addresspostcode, Unset):
            if isinstance(self.addresspostcode, str):
                files.append(("address[postcode]", (None, str(self.addresspostcode).encode(), "text/plain")))
            else:
                files.append(("address[postcode]", (None, self.addresspostcode, "text/plain")))

        if not isinstance(self.addressregion, Unset):
            if isinstance(self.addressregion, str):
                files.append(("address[region]", (None, str(self.addressregion).encode(), "text/plain")))
            else:
                files.append(("address[region]", (None, self.addressregion, "text/plain")))

        if not isinstance(self.addresscountry, Unset):
            if isinstance(self.addresscountry, str):
                files.append(("address[country]", (None, str(self.addresscountry).encode(), "text/plain")))
            else:
                files.append(("address[country]", (None, self.addresscountry, "text/plain")))

        if not isinstance(self.vat_id, Unset):
            if isinstance(self.vat_id, str):
                files.append(("vat_id", (None, str(self.vat_id).encode(), "text/plain")))
            else:
                files.append(("vat_id", (None, self.vat_id, "text/plain")))

        if not isinstance(self.tax_id, Unset):
            if isinstance(self.tax_id, str):
                files.append(("tax_id", (None, str(self.tax_id).encode(), "text/plain")))
            else:
                files.append(("tax_id", (None, self.tax_id, "text/plain")))

        if not isinstance(self.registration, Unset):
            if isinstance(self.registration, str):
                files.append(("registration", (None, str(self.registration).encode(), "text/plain")))
            else:
                files.append(("registration", (None, self.registration, "text/plain")))

        if not isinstance(self.contact_name, Unset):
            if isinstance(self.contact_name, str):
                files.append(("contact_name", (None, str(self.contact_name).encode(), "text/plain")))
            else:
                files.append(("contact_name", (None, self.contact_name, "text/plain")))

        if not isinstance(self.email, Unset):
            if isinstance(self.email, str):
                files.append(("email", (None, str(self.email).encode(), "text/plain")))
            else:
                files.append(("email", (None, self.email, "text/plain")))

        if not isinstance(self.phone, Unset):
            if isinstance(self.phone, str):
                files.append(("phone", (None, str(self.phone).encode(), "text/plain")))
            else:
                files.append(("phone", (None, self.phone, "text/plain")))

        if not isinstance(self.website, Unset):
            if isinstance(self.website, str):
                files.append(("website", (None, str(self.website).encode(), "text/plain")))
            else:
                files.append(("website", (None, self.website, "text/plain")))

        if not isinstance(self.bank, Unset):
            files.append(("bank", (None, self.bank, "text/plain")))

        if not isinstance(self.bankiban, Unset):
            if isinstance(self.bankiban, str):
                files.append(("bank[iban]", (None, str(self.bankiban).encode(), "text/plain")))
            else:
                files.append(("bank[iban]", (None, self.bankiban, "text/plain")))

        if not isinstance(self.bankbic, Unset):
            if isinstance(self.bankbic, str):
                files.append(("bank[bic]", (None, str(self.bankbic).encode(), "text/plain")))
            else:
                files.append(("bank[bic]", (None, self.bankbic, "text/plain")))

        if not isinstance(self.bankaccount_name, Unset):
            if isinstance(self.bankaccount_name, str):
                files.append(("bank[account_name]", (None, str(self.bankaccount_name).encode(), "text/plain")))
            else:
                files.append(("bank[account_name]", (None, self.bankaccount_name, "text/plain")))

        if not isinstance(self.peppol, Unset):
            files.append(("peppol", (None, self.peppol, "text/plain")))

        if not isinstance(self.peppolscheme, Unset):
            if isinstance(self.peppolscheme, str):
                files.append(("peppol[scheme]", (None, str(self.peppolscheme).encode(), "text/plain")))
            else:
                files.append(("peppol[scheme]", (None, self.peppolscheme, "text/plain")))

        if not isinstance(self.peppolid, Unset):
            if isinstance(self.peppolid, str):
                files.append(("peppol[id]", (None, str(self.peppolid).encode(), "text/plain")))
            else:
                files.append(("peppol[id]", (None, self.peppolid, "text/plain")))

        if not isinstance(self.currency, Unset):
            if isinstance(self.currency, str):
                files.append(("currency", (None, str(self.currency).encode(), "text/plain")))
            else:
                files.append(("currency", (None, self.currency, "text/plain")))

        if not isinstance(self.timezone, Unset):
            if isinstance(self.timezone, str):
                files.append(("timezone", (None, str(self.timezone).encode(), "text/plain")))
            else:
                files.append(("timezone", (None, self.timezone, "text/plain")))

        if not isinstance(self.payment_terms, Unset):
            if isinstance(self.payment_terms, str):
                files.append(("payment_terms", (None, str(self.payment_terms).encode(), "text/plain")))
            else:
                files.append(("payment_terms", (None, self.payment_terms, "text/plain")))

        if not isinstance(self.number_formats, Unset):
            files.append(("number_formats", (None, self.number_formats, "text/plain")))

        if not isinstance(self.number_formatsinvoice, Unset):
            if isinstance(self.number_formatsinvoice, str):
                files.append(
                    ("number_formats[invoice]", (None, str(self.number_formatsinvoice).encode(), "text/plain"))
                )
            else:
                files.append(("number_formats[invoice]", (None, self.number_formatsinvoice, "text/plain")))

        if not isinstance(self.number_formatsestimate, Unset):
            if isinstance(self.number_formatsestimate, str):
                files.append(
                    ("number_formats[estimate]", (None, str(self.number_formatsestimate).encode(), "text/plain"))
                )
            else:
                files.append(("number_formats[estimate]", (None, self.number_formatsestimate, "text/plain")))

        if not isinstance(self.number_formatscredit_note, Unset):
            if isinstance(self.number_formatscredit_note, str):
                files.append(
                    ("number_formats[credit_note]", (None, str(self.number_formatscredit_note).encode(), "text/plain"))
                )
            else:
                files.append(("number_formats[credit_note]", (None, self.number_formatscredit_note, "text/plain")))

        if not isinstance(self.reminders, Unset):
            if isinstance(self.reminders, list):
                for componentsschemas_reminder_steps_input_item_element in self.reminders:
                    files.append(
                        (
                            "reminders",
                            (None, str(componentsschemas_reminder_steps_input_item_element).encode(), "text/plain"),
                        )
                    )
            else:
                files.append(("reminders", (None, self.reminders, "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_legal_name(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            legal_name_type_1 = cast(Literal[""], data)
            if legal_name_type_1 != "":
                raise ValueError(f"legal_name_type_1 must match const '', got '{legal_name_type_1}'")
            return legal_name_type_1
            return cast(Literal[""] | str | Unset, data)

        legal_name = _parse_legal_name(d.pop("legal_name", UNSET))

        def _parse_trading_name(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            trading_name_type_1 = cast(Literal[""], data)
            if trading_name_type_1 != "":
                raise ValueError(f"trading_name_type_1 must match const '', got '{trading_name_type_1}'")
            return trading_name_type_1
            return cast(Literal[""] | str | Unset, data)

        trading_name = _parse_trading_name(d.pop("trading_name", UNSET))

        address = cast(Literal[""] | Unset, d.pop("address", UNSET))
        if address != "" and not isinstance(address, Unset):
            raise ValueError(f"address must match const '', got '{address}'")

        def _parse_addressline1(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            addressline1_type_1 = cast(Literal[""], data)
            if addressline1_type_1 != "":
                raise ValueError(f"address[line1]_type_1 must match const '', got '{addressline1_type_1}'")
            return addressline1_type_1
            return cast(Literal[""] | str | Unset, data)

        addressline1 = _parse_addressline1(d.pop("address[line1]", UNSET))

        def _parse_addressline2(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            addressline2_type_1 = cast(Literal[""], data)
            if addressline2_type_1 != "":
                raise ValueError(f"address[line2]_type_1 must match const '', got '{addressline2_type_1}'")
            return addressline2_type_1
            return cast(Literal[""] | str | Unset, data)

        addressline2 = _parse_addressline2(d.pop("address[line2]", UNSET))

        def _parse_addresscity(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            addresscity_type_1 = cast(Literal[""], data)
            if addresscity_type_1 != "":
                raise ValueError(f"address[city]_type_1 must match const '', got '{addresscity_type_1}'")
            return addresscity_type_1
            return cast(Literal[""] | str | Unset, data)

        addresscity = _parse_addresscity(d.pop("address[city]", UNSET))

        def _parse_addresspostcode(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            addresspostcode_type_1 = cast(Literal[""], data)
            if addresspostcode_type_1 != "":
                raise ValueError(f"address[postcode]_type_1 must match const '', got '{addresspostcode_type_1}'")
            return addresspostcode_type_1
            return cast(Literal[""] | str | Unset, data)

        addresspostcode = _parse_addresspostcode(d.pop("address[postcode]", UNSET))

        def _parse_addressregion(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            addressregion_type_1 = cast(Literal[""], data)
            if addressregion_type_1 != "":
                raise ValueError(f"address[region]_type_1 must match const '', got '{addressregion_type_1}'")
            return addressregion_type_1
            return cast(Literal[""] | str | Unset, data)

        addressregion = _parse_addressregion(d.pop("address[region]", UNSET))

        def _parse_addresscountry(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            addresscountry_type_1 = cast(Literal[""], data)
            if addresscountry_type_1 != "":
                raise ValueError(f"address[country]_type_1 must match const '', got '{addresscountry_type_1}'")
            return addresscountry_type_1
            return cast(Literal[""] | str | Unset, data)

        addresscountry = _parse_addresscountry(d.pop("address[country]", UNSET))

        def _parse_vat_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            vat_id_type_1 = cast(Literal[""], data)
            if vat_id_type_1 != "":
                raise ValueError(f"vat_id_type_1 must match const '', got '{vat_id_type_1}'")
            return vat_id_type_1
            return cast(Literal[""] | str | Unset, data)

        vat_id = _parse_vat_id(d.pop("vat_id", UNSET))

        def _parse_tax_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            tax_id_type_1 = cast(Literal[""], data)
            if tax_id_type_1 != "":
                raise ValueError(f"tax_id_type_1 must match const '', got '{tax_id_type_1}'")
            return tax_id_type_1
            return cast(Literal[""] | str | Unset, data)

        tax_id = _parse_tax_id(d.pop("tax_id", UNSET))

        def _parse_registration(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            registration_type_1 = cast(Literal[""], data)
            if registration_type_1 != "":
                raise ValueError(f"registration_type_1 must match const '', got '{registration_type_1}'")
            return registration_type_1
            return cast(Literal[""] | str | Unset, data)

        registration = _parse_registration(d.pop("registration", UNSET))

        def _parse_contact_name(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            contact_name_type_1 = cast(Literal[""], data)
            if contact_name_type_1 != "":
                raise ValueError(f"contact_name_type_1 must match const '', got '{contact_name_type_1}'")
            return contact_name_type_1
            return cast(Literal[""] | str | Unset, data)

        contact_name = _parse_contact_name(d.pop("contact_name", UNSET))

        def _parse_email(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            email_type_1 = cast(Literal[""], data)
            if email_type_1 != "":
                raise ValueError(f"email_type_1 must match const '', got '{email_type_1}'")
            return email_type_1
            return cast(Literal[""] | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_phone(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            phone_type_1 = cast(Literal[""], data)
            if phone_type_1 != "":
                raise ValueError(f"phone_type_1 must match const '', got '{phone_type_1}'")
            return phone_type_1
            return cast(Literal[""] | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        def _parse_website(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            website_type_1 = cast(Literal[""], data)
            if website_type_1 != "":
                raise ValueError(f"website_type_1 must match const '', got '{website_type_1}'")
            return website_type_1
            return cast(Literal[""] | str | Unset, data)

        website = _parse_website(d.pop("website", UNSET))

        bank = cast(Literal[""] | Unset, d.pop("bank", UNSET))
        if bank != "" and not isinstance(bank, Unset):
            raise ValueError(f"bank must match const '', got '{bank}'")

        def _parse_bankiban(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bankiban_type_1 = cast(Literal[""], data)
            if bankiban_type_1 != "":
                raise ValueError(f"bank[iban]_type_1 must match const '', got '{bankiban_type_1}'")
            return bankiban_type_1
            return cast(Literal[""] | str | Unset, data)

        bankiban = _parse_bankiban(d.pop("bank[iban]", UNSET))

        def _parse_bankbic(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bankbic_type_1 = cast(Literal[""], data)
            if bankbic_type_1 != "":
                raise ValueError(f"bank[bic]_type_1 must match const '', got '{bankbic_type_1}'")
            return bankbic_type_1
            return cast(Literal[""] | str | Unset, data)

        bankbic = _parse_bankbic(d.pop("bank[bic]", UNSET))

        def _parse_bankaccount_name(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            bankaccount_name_type_1 = cast(Literal[""], data)
            if bankaccount_name_type_1 != "":
                raise ValueError(f"bank[account_name]_type_1 must match const '', got '{bankaccount_name_type_1}'")
            return bankaccount_name_type_1
            return cast(Literal[""] | str | Unset, data)

        bankaccount_name = _parse_bankaccount_name(d.pop("bank[account_name]", UNSET))

        peppol = cast(Literal[""] | Unset, d.pop("peppol", UNSET))
        if peppol != "" and not isinstance(peppol, Unset):
            raise ValueError(f"peppol must match const '', got '{peppol}'")

        def _parse_peppolscheme(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            peppolscheme_type_1 = cast(Literal[""], data)
            if peppolscheme_type_1 != "":
                raise ValueError(f"peppol[scheme]_type_1 must match const '', got '{peppolscheme_type_1}'")
            return peppolscheme_type_1
            return cast(Literal[""] | str | Unset, data)

        peppolscheme = _parse_peppolscheme(d.pop("peppol[scheme]", UNSET))

        def _parse_peppolid(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            peppolid_type_1 = cast(Literal[""], data)
            if peppolid_type_1 != "":
                raise ValueError(f"peppol[id]_type_1 must match const '', got '{peppolid_type_1}'")
            return peppolid_type_1
            return cast(Literal[""] | str | Unset, data)

        peppolid = _parse_peppolid(d.pop("peppol[id]", UNSET))

        def _parse_currency(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            currency_type_1 = cast(Literal[""], data)
            if currency_type_1 != "":
                raise ValueError(f"currency_type_1 must match const '', got '{currency_type_1}'")
            return currency_type_1
            return cast(Literal[""] | str | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_timezone(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            timezone_type_1 = cast(Literal[""], data)
            if timezone_type_1 != "":
                raise ValueError(f"timezone_type_1 must match const '', got '{timezone_type_1}'")
            return timezone_type_1
            return cast(Literal[""] | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        def _parse_payment_terms(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            payment_terms_type_1 = cast(Literal[""], data)
            if payment_terms_type_1 != "":
                raise ValueError(f"payment_terms_type_1 must match const '', got '{payment_terms_type_1}'")
            return payment_terms_type_1
            return cast(Literal[""] | str | Unset, data)

        payment_terms = _parse_payment_terms(d.pop("payment_terms", UNSET))

        number_formats = cast(Literal[""] | Unset, d.pop("number_formats", UNSET))
        if number_formats != "" and not isinstance(number_formats, Unset):
            raise ValueError(f"number_formats must match const '', got '{number_formats}'")

        def _parse_number_formatsinvoice(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            number_formatsinvoice_type_1 = cast(Literal[""], data)
            if number_formatsinvoice_type_1 != "":
                raise ValueError(
                    f"number_formats[invoice]_type_1 must match const '', got '{number_formatsinvoice_type_1}'"
                )
            return number_formatsinvoice_type_1
            return cast(Literal[""] | str | Unset, data)

        number_formatsinvoice = _parse_number_formatsinvoice(d.pop("number_formats[invoice]", UNSET))

        def _parse_number_formatsestimate(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            number_formatsestimate_type_1 = cast(Literal[""], data)
            if number_formatsestimate_type_1 != "":
                raise ValueError(
                    f"number_formats[estimate]_type_1 must match const '', got '{number_formatsestimate_type_1}'"
                )
            return number_formatsestimate_type_1
            return cast(Literal[""] | str | Unset, data)

        number_formatsestimate = _parse_number_formatsestimate(d.pop("number_formats[estimate]", UNSET))

        def _parse_number_formatscredit_note(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            number_formatscredit_note_type_1 = cast(Literal[""], data)
            if number_formatscredit_note_type_1 != "":
                raise ValueError(
                    f"number_formats[credit_note]_type_1 must match const '', got '{number_formatscredit_note_type_1}'"
                )
            return number_formatscredit_note_type_1
            return cast(Literal[""] | str | Unset, data)

        number_formatscredit_note = _parse_number_formatscredit_note(d.pop("number_formats[credit_note]", UNSET))

        def _parse_reminders(data: object) -> list[int] | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                reminders_type_0 = cast(list[int], data)

                return reminders_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            reminders_type_1 = cast(Literal[""], data)
            if reminders_type_1 != "":
                raise ValueError(f"reminders_type_1 must match const '', got '{reminders_type_1}'")
            return reminders_type_1

        reminders = _parse_reminders(d.pop("reminders", UNSET))

        update_company_files_body = cls(
            legal_name=legal_name,
            trading_name=trading_name,
            address=address,
            addressline1=addressline1,
            addressline2=addressline2,
            addresscity=addresscity,
            addresspostcode=addresspostcode,
            addressregion=addressregion,
            addresscountry=addresscountry,
            vat_id=vat_id,
            tax_id=tax_id,
            registration=registration,
            contact_name=contact_name,
            email=email,
            phone=phone,
            website=website,
            bank=bank,
            bankiban=bankiban,
            bankbic=bankbic,
            bankaccount_name=bankaccount_name,
            peppol=peppol,
            peppolscheme=peppolscheme,
            peppolid=peppolid,
            currency=currency,
            timezone=timezone,
            payment_terms=payment_terms,
            number_formats=number_formats,
            number_formatsinvoice=number_formatsinvoice,
            number_formatsestimate=number_formatsestimate,
            number_formatscredit_note=number_formatscredit_note,
            reminders=reminders,
        )

        update_company_files_body.additional_properties = d
        return update_company_files_body

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
