from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.address import Address
    from ..models.peppol import Peppol


T = TypeVar("T", bound="Buyer")


@_attrs_define
class Buyer:
    """The buyer as an issued document names it: the client's identity when the document was issued.

    Attributes:
        company_name (str):
        contact_name (None | str):
        address (Address): A postal address; a line never set is `null`.
        vat_id (None | str):
        peppol (Peppol): A Peppol endpoint (ISO 6523 scheme and id).
        buyer_reference (None | str):
    """

    company_name: str
    contact_name: None | str
    address: Address
    vat_id: None | str
    peppol: Peppol
    buyer_reference: None | str

    def to_dict(self) -> dict[str, Any]:
        company_name = self.company_name

        contact_name: None | str
        contact_name = self.contact_name

        address = self.address.to_dict()

        vat_id: None | str
        vat_id = self.vat_id

        peppol = self.peppol.to_dict()

        buyer_reference: None | str
        buyer_reference = self.buyer_reference

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "company_name": company_name,
                "contact_name": contact_name,
                "address": address,
                "vat_id": vat_id,
                "peppol": peppol,
                "buyer_reference": buyer_reference,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address import Address  # noqa: PLC0415
        from ..models.peppol import Peppol  # noqa: PLC0415

        d = dict(src_dict)
        company_name = d.pop("company_name")

        def _parse_contact_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_name = _parse_contact_name(d.pop("contact_name"))

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

        buyer = cls(
            company_name=company_name,
            contact_name=contact_name,
            address=address,
            vat_id=vat_id,
            peppol=peppol,
            buyer_reference=buyer_reference,
        )

        return buyer
