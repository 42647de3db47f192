from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_client_data_body_status_type_0 import CreateClientDataBodyStatusType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateClientDataBody")


@_attrs_define
class CreateClientDataBody:
    """
    Attributes:
        company_name (str): Text of at most 250 characters once trimmed and normalised to NFC, no HTML tags, one line:
            no line breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation selectors
            and tags only inside emoji and script sequences); not blank.
        contact_name (Literal[''] | str | Unset): Who to address.
        contact_email (Literal[''] | str | Unset): Where documents go.
        address (Literal[''] | Unset):
        addressline1 (Literal[''] | str | Unset): First line (street and number): at most 250 characters, one line.
        addressline2 (Literal[''] | str | Unset): Second line.
        addresscity (Literal[''] | str | Unset): City.
        addresspostcode (Literal[''] | str | Unset): Postal code: at most 100 characters.
        addressregion (Literal[''] | str | Unset): Region, state or province.
        addresscountry (Literal[''] | str | Unset): ISO 3166-1 alpha-2 country code.
        vat_id (Literal[''] | str | Unset): VAT identifier with its country prefix.
        peppol (Literal[''] | Unset):
        peppolscheme (Literal[''] | str | Unset): ISO 6523 scheme code.
        peppolid (Literal[''] | str | Unset): The identifier within the scheme: at most 250 characters, one line.
        buyer_reference (Literal[''] | str | Unset): The buyer's reference (EN 16931 BT-10, a Leitweg-ID): at most 250
            characters, one line.
        currency (Literal[''] | str | Unset): Default currency of its documents; `null`: the company's.
        category_id (Literal[''] | str | Unset): A client category (default: the system-default one); cannot be cleared.
        status (CreateClientDataBodyStatusType0 | Literal[''] | Unset): `active` (default) or `suspended`; cannot be
            cleared.
    """

    company_name: str
    contact_name: Literal[""] | str | Unset = UNSET
    contact_email: Literal[""] | str | Unset = UNSET
    address: Literal[""] | Unset = UNSET
    addressline1: Literal[""] | str | Unset = UNSET
    addressline2: Literal[""] | str | Unset = UNSET
    addresscity: Literal[""] | str | Unset = UNSET
    addresspostcode: Literal[""] | str | Unset = UNSET
    addressregion: Literal[""] | str | Unset = UNSET
    addresscountry: Literal[""] | str | Unset = UNSET
    vat_id: Literal[""] | str | Unset = UNSET
    peppol: Literal[""] | Unset = UNSET
    peppolscheme: Literal[""] | str | Unset = UNSET
    peppolid: Literal[""] | str | Unset = UNSET
    buyer_reference: Literal[""] | str | Unset = UNSET
    currency: Literal[""] | str | Unset = UNSET
    category_id: Literal[""] | str | Unset = UNSET
    status: CreateClientDataBodyStatusType0 | Literal[""] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        company_name = self.company_name

        contact_name: Literal[""] | str | Unset
        if isinstance(self.contact_name, Unset):
            contact_name = UNSET
        else:
            contact_name = self.contact_name

        contact_email: Literal[""] | str | Unset
        if isinstance(self.contact_email, Unset):
            contact_email = UNSET
        else:
            contact_email = self.contact_email

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

        buyer_reference: Literal[""] | str | Unset
        if isinstance(self.buyer_reference, Unset):
            buyer_reference = UNSET
        else:
            buyer_reference = self.buyer_reference

        currency: Literal[""] | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        category_id: Literal[""] | str | Unset
        if isinstance(self.category_id, Unset):
            category_id = UNSET
        else:
            category_id = self.category_id

        status: Literal[""] | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, CreateClientDataBodyStatusType0):
            status = self.status.value
        else:
            status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "company_name": company_name,
            }
        )
        if contact_name is not UNSET:
            field_dict["contact_name"] = contact_name
        if contact_email is not UNSET:
            field_dict["contact_email"] = contact_email
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
        if peppol is not UNSET:
            field_dict["peppol"] = peppol
        if peppolscheme is not UNSET:
            field_dict["peppol[scheme]"] = peppolscheme
        if peppolid is not UNSET:
            field_dict["peppol[id]"] = peppolid
        if buyer_reference is not UNSET:
            field_dict["buyer_reference"] = buyer_reference
        if currency is not UNSET:
            field_dict["currency"] = currency
        if category_id is not UNSET:
            field_dict["category_id"] = category_id
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        company_name = d.pop("company_name")

        def _parse_contact_name(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            contact_name_type_1 = cast(Literal[""], data)
            if contact_name_type_1 != "":
                raise ValueError(f"contact_name_type_1 must match const '', got '{contact_name_type_1}'")
            return contact_name_type_1
            return cast(Literal[""] | str | Unset, data)

        contact_name = _parse_contact_name(d.pop("contact_name", UNSET))

        def _parse_contact_email(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            contact_email_type_1 = cast(Literal[""], data)
            if contact_email_type_1 != "":
                raise ValueError(f"contact_email_type_1 must match const '', got '{contact_email_type_1}'")
            return contact_email_type_1
            return cast(Literal[""] | str | Unset, data)

        contact_email = _parse_contact_email(d.pop("contact_email", UNSET))

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

        def _parse_buyer_reference(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            buyer_reference_type_1 = cast(Literal[""], data)
            if buyer_reference_type_1 != "":
                raise ValueError(f"buyer_reference_type_1 must match const '', got '{buyer_reference_type_1}'")
            return buyer_reference_type_1
            return cast(Literal[""] | str | Unset, data)

        buyer_reference = _parse_buyer_reference(d.pop("buyer_reference", UNSET))

        def _parse_currency(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            currency_type_1 = cast(Literal[""], data)
            if currency_type_1 != "":
                raise ValueError(f"currency_type_1 must match const '', got '{currency_type_1}'")
            return currency_type_1
            return cast(Literal[""] | str | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_category_id(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            category_id_type_1 = cast(Literal[""], data)
            if category_id_type_1 != "":
                raise ValueError(f"category_id_type_1 must match const '', got '{category_id_type_1}'")
            return category_id_type_1
            return cast(Literal[""] | str | Unset, data)

        category_id = _parse_category_id(d.pop("category_id", UNSET))

        def _parse_status(data: object) -> CreateClientDataBodyStatusType0 | Literal[""] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = CreateClientDataBodyStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            status_type_1 = cast(Literal[""], data)
            if status_type_1 != "":
                raise ValueError(f"status_type_1 must match const '', got '{status_type_1}'")
            return status_type_1

        status = _parse_status(d.pop("status", UNSET))

        create_client_data_body = cls(
            company_name=company_name,
            contact_name=contact_name,
            contact_email=contact_email,
            address=address,
            addressline1=addressline1,
            addressline2=addressline2,
            addresscity=addresscity,
            addresspostcode=addresspostcode,
            addressregion=addressregion,
            addresscountry=addresscountry,
            vat_id=vat_id,
            peppol=peppol,
            peppolscheme=peppolscheme,
            peppolid=peppolid,
            buyer_reference=buyer_reference,
            currency=currency,
            category_id=category_id,
            status=status,
        )

        create_client_data_body.additional_properties = d
        return create_client_data_body

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
