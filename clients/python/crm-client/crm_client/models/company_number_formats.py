from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CompanyNumberFormats")


@_attrs_define
class CompanyNumberFormats:
    """Each numbered kind's number format; its default where none was set (`INV-{YYYY}-{SEQ:5}`, `EST-{YYYY}-{SEQ:5}`,
    `CN-{YYYY}-{SEQ:5}`).

        Attributes:
            invoice (str):
            estimate (str):
            credit_note (str):
    """

    invoice: str
    estimate: str
    credit_note: str

    def to_dict(self) -> dict[str, Any]:
        invoice = self.invoice

        estimate = self.estimate

        credit_note = self.credit_note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "invoice": invoice,
                "estimate": estimate,
                "credit_note": credit_note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        invoice = d.pop("invoice")

        estimate = d.pop("estimate")

        credit_note = d.pop("credit_note")

        company_number_formats = cls(
            invoice=invoice,
            estimate=estimate,
            credit_note=credit_note,
        )

        return company_number_formats
