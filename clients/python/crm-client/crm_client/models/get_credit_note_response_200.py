from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.credit_note import CreditNote


T = TypeVar("T", bound="GetCreditNoteResponse200")


@_attrs_define
class GetCreditNoteResponse200:
    """
    Attributes:
        data (CreditNote): A credit note (API.md §18): the correction of an issued invoice, issued at once with its own
            number, never changed nor deleted (only its client link changes).
        message (Literal['Credit note retrieved successfully.']):
    """

    data: CreditNote
    message: Literal["Credit note retrieved successfully."]

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
        from ..models.credit_note import CreditNote  # noqa: PLC0415

        d = dict(src_dict)
        data = CreditNote.from_dict(d.pop("data"))

        message = cast(Literal["Credit note retrieved successfully."], d.pop("message"))
        if message != "Credit note retrieved successfully.":
            raise ValueError(f"message must match const 'Credit note retrieved successfully.', got '{message}'")

        get_credit_note_response_200 = cls(
            data=data,
            message=message,
        )

        return get_credit_note_response_200
