from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.einvoice_readiness_format import EinvoiceReadinessFormat

if TYPE_CHECKING:
    from ..models.einvoice_missing import EinvoiceMissing


T = TypeVar("T", bound="EinvoiceReadiness")


@_attrs_define
class EinvoiceReadiness:
    """Whether a document can be exported in a format, and what is missing.

    Attributes:
        format_ (EinvoiceReadinessFormat):
        ready (bool):
        missing (list[EinvoiceMissing]):
    """

    format_: EinvoiceReadinessFormat
    ready: bool
    missing: list[EinvoiceMissing]

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_.value

        ready = self.ready

        missing = []
        for missing_item_data in self.missing:
            missing_item = missing_item_data.to_dict()
            missing.append(missing_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
                "ready": ready,
                "missing": missing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.einvoice_missing import EinvoiceMissing  # noqa: PLC0415

        d = dict(src_dict)
        format_ = EinvoiceReadinessFormat(d.pop("format"))

        ready = d.pop("ready")

        missing = []
        _missing = d.pop("missing")
        for missing_item_data in _missing:
            missing_item = EinvoiceMissing.from_dict(missing_item_data)

            missing.append(missing_item)

        einvoice_readiness = cls(
            format_=format_,
            ready=ready,
            missing=missing,
        )

        return einvoice_readiness
