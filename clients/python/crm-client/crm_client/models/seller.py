from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.address import Address
    from ..models.bank import Bank
    from ..models.peppol import Peppol


T = TypeVar("T", bound="Seller")


@_attrs_define
class Seller:
    """The seller as an issued document names it: the company's identity and how it is paid when the document was issued
    (API.md §18).

        Attributes:
            legal_name (None | str):
            trading_name (str):
            address (Address): A postal address; a line never set is `null`.
            vat_id (None | str):
            tax_id (None | str):
            registration (None | str):
            contact_name (None | str):
            email (None | str):
            phone (None | str):
            bank (Bank): A bank account.
            peppol (Peppol): A Peppol endpoint (ISO 6523 scheme and id).
            payment_terms (None | str):
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
    bank: Bank
    peppol: Peppol
    payment_terms: None | str

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

        bank = self.bank.to_dict()

        peppol = self.peppol.to_dict()

        payment_terms: None | str
        payment_terms = self.payment_terms

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
                "bank": bank,
                "peppol": peppol,
                "payment_terms": payment_terms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address import Address  # noqa: PLC0415
        from ..models.bank import Bank  # noqa: PLC0415
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

        bank = Bank.from_dict(d.pop("bank"))

        peppol = Peppol.from_dict(d.pop("peppol"))

        def _parse_payment_terms(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        payment_terms = _parse_payment_terms(d.pop("payment_terms"))

        seller = cls(
            legal_name=legal_name,
            trading_name=trading_name,
            address=address,
            vat_id=vat_id,
            tax_id=tax_id,
            registration=registration,
            contact_name=contact_name,
            email=email,
            phone=phone,
            bank=bank,
            peppol=peppol,
            payment_terms=payment_terms,
        )

        return seller
