from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.payment import Payment


T = TypeVar("T", bound="GetPaymentResponse200")


@_attrs_define
class GetPaymentResponse200:
    """
    Attributes:
        data (Payment): Money received against an invoice (API.md §14).
        message (Literal['Payment retrieved successfully.']):
    """

    data: Payment
    message: Literal["Payment retrieved successfully."]

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.payment import Payment  # noqa: PLC0415

        d = dict(src_dict)
        data = Payment.from_dict(d.pop("data"))

        message = cast(Literal["Payment retrieved successfully."], d.pop("message"))
        if message != "Payment retrieved successfully.":
            raise ValueError(f"message must match const 'Payment retrieved successfully.', got '{message}'")

        get_payment_response_200 = cls(
            data=data,
            message=message,
        )

        return get_payment_response_200
