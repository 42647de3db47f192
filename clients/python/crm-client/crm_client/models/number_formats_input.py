from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="NumberFormatsInput")


@_attrs_define
class NumberFormatsInput:
    """Each numbered kind's number format (API.md §18): one `{SEQ:n}` (the sequence, at least n digits, n from 1 to 9) and
    optionally `{YYYY}`, `{YY}`, `{MM}` (of the day of issue), with letters, digits, spaces and `- / . _ #` besides, in
    at most 40 characters. Numbers whose format gives the same prefix for their day are one gapless series (with
    `{YYYY}` in it, each year restarts at 1). On PATCH each member sent changes alone; one sent empty (or the whole
    group) restores the default.

        Attributes:
            invoice (Literal[''] | None | str | Unset): Invoices (default `INV-{YYYY}-{SEQ:5}`).
            estimate (Literal[''] | None | str | Unset): Estimates (default `EST-{YYYY}-{SEQ:5}`).
            credit_note (Literal[''] | None | str | Unset): Credit notes (default `CN-{YYYY}-{SEQ:5}`).
    """

    invoice: Literal[""] | None | str | Unset = UNSET
    estimate: Literal[""] | None | str | Unset = UNSET
    credit_note: Literal[""] | None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        invoice: Literal[""] | None | str | Unset
        if isinstance(self.invoice, Unset):
            invoice = UNSET
        else:
            invoice = self.invoice

        estimate: Literal[""] | None | str | Unset
        if isinstance(self.estimate, Unset):
            estimate = UNSET
        else:
            estimate = self.estimate

        credit_note: Literal[""] | None | str | Unset
        if isinstance(self.credit_note, Unset):
            credit_note = UNSET
        else:
            credit_note = self.credit_note

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if invoice is not UNSET:
            field_dict["invoice"] = invoice
        if estimate is not UNSET:
            field_dict["estimate"] = estimate
        if credit_note is not UNSET:
            field_dict["credit_note"] = credit_note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_invoice(data: object) -> Literal[""] | None | str | Unset:
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

        invoice = _parse_invoice(d.pop("invoice", UNSET))

        def _parse_estimate(data: object) -> Literal[""] | None | str | Unset:
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

        estimate = _parse_estimate(d.pop("estimate", UNSET))

        def _parse_credit_note(data: object) -> Literal[""] | None | str | Unset:
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

        credit_note = _parse_credit_note(d.pop("credit_note", UNSET))

        number_formats_input = cls(
            invoice=invoice,
            estimate=estimate,
            credit_note=credit_note,
        )

        return number_formats_input
