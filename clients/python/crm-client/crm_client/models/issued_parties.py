from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.buyer import Buyer
    from ..models.seller import Seller


T = TypeVar("T", bound="IssuedParties")


@_attrs_define
class IssuedParties:
    """Who an issued document is from and to, kept with it when it was issued: a later change of the company's settings or
    of the client's record does not change what it states (API.md §18).

        Attributes:
            seller (Seller): The seller as an issued document names it: the company's identity and how it is paid when the
                document was issued (API.md §18).
            buyer (Buyer): The buyer as an issued document names it: the client's identity when the document was issued.
    """

    seller: Seller
    buyer: Buyer

    def to_dict(self) -> dict[str, Any]:
        seller = self.seller.to_dict()

        buyer = self.buyer.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seller": seller,
                "buyer": buyer,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.buyer import Buyer  # noqa: PLC0415
        from ..models.seller import Seller  # noqa: PLC0415

        d = dict(src_dict)
        seller = Seller.from_dict(d.pop("seller"))

        buyer = Buyer.from_dict(d.pop("buyer"))

        issued_parties = cls(
            seller=seller,
            buyer=buyer,
        )

        return issued_parties
