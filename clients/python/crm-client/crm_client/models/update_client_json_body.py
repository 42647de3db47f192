from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.update_client_json_body_status_type_0 import UpdateClientJsonBodyStatusType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.address_input import AddressInput
    from ..models.peppol_input import PeppolInput


T = TypeVar("T", bound="UpdateClientJsonBody")


@_attrs_define
class UpdateClientJsonBody:
    """
    Attributes:
        company_name (Literal[''] | None | str | Unset): The client's name (cannot be cleared).
        contact_name (Literal[''] | None | str | Unset): Who to address.
        contact_email (Literal[''] | None | str | Unset): Where documents go.
        address (AddressInput | Literal[''] | None | Unset): Billing address.
        vat_id (Literal[''] | None | str | Unset): VAT identifier with its country prefix.
        peppol (Literal[''] | None | PeppolInput | Unset): Peppol endpoint.
        buyer_reference (Literal[''] | None | str | Unset): The buyer's reference (EN 16931 BT-10, a Leitweg-ID): at
            most 250 characters, one line.
        currency (Literal[''] | None | str | Unset): Default currency of its documents; `null`: the company's.
        category_id (int | Literal[''] | None | str | Unset): A client category (default: the system-default one);
            cannot be cleared.
        status (Literal[''] | None | Unset | UpdateClientJsonBodyStatusType0): `active` (default) or `suspended`; cannot
            be cleared.
    """

    company_name: Literal[""] | None | str | Unset = UNSET
    contact_name: Literal[""] | None | str | Unset = UNSET
    contact_email: Literal[""] | None | str | Unset = UNSET
    address: AddressInput | Literal[""] | None | Unset = UNSET
    vat_id: Literal[""] | None | str | Unset = UNSET
    peppol: Literal[""] | None | PeppolInput | Unset = UNSET
    buyer_reference: Literal[""] | None | str | Unset = UNSET
    currency: Literal[""] | None | str | Unset = UNSET
    category_id: int | Literal[""] | None | str | Unset = UNSET
    status: Literal[""] | None | Unset | UpdateClientJsonBodyStatusType0 = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.address_input import AddressInput  # noqa: PLC0415
        from ..models.peppol_input import PeppolInput  # noqa: PLC0415

        company_name: Literal[""] | None | str | Unset
        if isinstance(self.company_name, Unset):
            company_name = UNSET
        else:
            company_name = self.company_name

        contact_name: Literal[""] | None | str | Unset
        if isinstance(self.contact_name, Unset):
            contact_name = UNSET
        else:
            contact_name = self.contact_name

        contact_email: Literal[""] | None | str | Unset
        if isinstance(self.contact_email, Unset):
            contact_email = UNSET
        else:
            contact_email = self.contact_email

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

        peppol: dict[str, Any] | Literal[""] | None | Unset
        if isinstance(self.peppol, Unset):
            peppol = UNSET
        elif isinstance(self.peppol, PeppolInput):
            peppol = self.peppol.to_dict()
        else:
            peppol = self.peppol

        buyer_reference: Literal[""] | None | str | Unset
        if isinstance(self.buyer_reference, Unset):
            buyer_reference = UNSET
        else:
            buyer_reference = self.buyer_reference

        currency: Literal[""] | None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        category_id: int | Literal[""] | None | str | Unset
        if isinstance(self.category_id, Unset):
            category_id = UNSET
        else:
            category_id = self.category_id

        status: Literal[""] | None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, UpdateClientJsonBodyStatusType0):
            status = self.status.value
        else:
            status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if company_name is not UNSET:
            field_dict["company_name"] = company_name
        if contact_name is not UNSET:
            field_dict["contact_name"] = contact_name
        if contact_email is not UNSET:
            field_dict["contact_email"] = contact_email
        if address is not UNSET:
            field_dict["address"] = address
        if vat_id is not UNSET:
            field_dict["vat_id"] = vat_id
        if peppol is not UNSET:
            field_dict["peppol"] = peppol
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
        from ..models.address_input import AddressInput  # noqa: PLC0415
        from ..models.peppol_input import PeppolInput  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_company_name(data: object) -> Literal[""] | None | str | Unset:
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

        company_name = _parse_company_name(d.pop("company_name", UNSET))

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

        def _parse_contact_email(data: object) -> Literal[""] | None | str | Unset:
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

        contact_email = _parse_contact_email(d.pop("contact_email", UNSET))

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

        def _parse_buyer_reference(data: object) -> Literal[""] | None | str | Unset:
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

        buyer_reference = _parse_buyer_reference(d.pop("buyer_reference", UNSET))

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

        def _parse_category_id(data: object) -> int | Literal[""] | None | str | Unset:
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
            return cast(int | Literal[""] | None | str | Unset, data)

        category_id = _parse_category_id(d.pop("category_id", UNSET))

        def _parse_status(data: object) -> Literal[""] | None | Unset | UpdateClientJsonBodyStatusType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = UpdateClientJsonBodyStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | Unset | UpdateClientJsonBodyStatusType0, data)

        status = _parse_status(d.pop("status", UNSET))

        update_client_json_body = cls(
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
        )

        update_client_json_body.additional_properties = d
        return update_client_json_body

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
