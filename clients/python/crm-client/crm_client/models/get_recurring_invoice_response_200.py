from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.recurring_invoice import RecurringInvoice


T = TypeVar("T", bound="GetRecurringInvoiceResponse200")


@_attrs_define
class GetRecurringInvoiceResponse200:
    """
    Attributes:
        data (RecurringInvoice): A recurring invoice (API.md §20): the template's fields as kept, the schedule, and
            where it stands.
        message (Literal['Recurring invoice retrieved successfully.']):
    """

    data: RecurringInvoice
    message: Literal["Recurring invoice retrieved successfully."]

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
        from ..models.recurring_invoice import RecurringInvoice  # noqa: PLC0415

        d = dict(src_dict)
        data = RecurringInvoice.from_dict(d.pop("data"))

        message = cast(Literal["Recurring invoice retrieved successfully."], d.pop("message"))
        if message != "Recurring invoice retrieved successfully.":
            raise ValueError(f"message must match const 'Recurring invoice retrieved successfully.', got '{message}'")

        get_recurring_invoice_response_200 = cls(
            data=data,
            message=message,
        )

        return get_recurring_invoice_response_200
