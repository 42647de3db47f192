from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.recurring_invoice import RecurringInvoice


T = TypeVar("T", bound="CreateRecurringInvoiceResponse201")


@_attrs_define
class CreateRecurringInvoiceResponse201:
    """
    Attributes:
        data (RecurringInvoice): A recurring invoice (API.md §20): the template's fields as kept, the schedule, and
            where it stands.
        message (Literal['Recurring invoice created successfully.']):
    """

    data: RecurringInvoice
    message: Literal["Recurring invoice created successfully."]

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

        message = cast(Literal["Recurring invoice created successfully."], d.pop("message"))
        if message != "Recurring invoice created successfully.":
            raise ValueError(f"message must match const 'Recurring invoice created successfully.', got '{message}'")

        create_recurring_invoice_response_201 = cls(
            data=data,
            message=message,
        )

        return create_recurring_invoice_response_201
