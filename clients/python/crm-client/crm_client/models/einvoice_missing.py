from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="EinvoiceMissing")


@_attrs_define
class EinvoiceMissing:
    """One thing that keeps a document from being exported as an e-invoice.

    Attributes:
        term (str): The EN 16931 business term or group (`BT-48`, `BG-16`).
        field (str): Where the value lives in the API (`client.vat_id`, `line_items.2.total`).
        message (str): What is wrong and how to mend it.
    """

    term: str
    field: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        term = self.term

        field = self.field

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "term": term,
                "field": field,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        term = d.pop("term")

        field = d.pop("field")

        message = d.pop("message")

        einvoice_missing = cls(
            term=term,
            field=field,
            message=message,
        )

        return einvoice_missing
