from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.einvoice_missing import EinvoiceMissing
    from ..models.einvoice_not_ready_errors import EinvoiceNotReadyErrors


T = TypeVar("T", bound="EinvoiceNotReady")


@_attrs_define
class EinvoiceNotReady:
    """An e-invoice export of a document that is not ready (422): `errors` by API field, and `missing` as the readiness
    check lists them.

        Attributes:
            message (Literal['The document is not ready for this e-invoice format.']):
            errors (EinvoiceNotReadyErrors):
            missing (list[EinvoiceMissing]):
    """

    message: Literal["The document is not ready for this e-invoice format."]
    errors: EinvoiceNotReadyErrors
    missing: list[EinvoiceMissing]

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        errors = self.errors.to_dict()

        missing = []
        for missing_item_data in self.missing:
            missing_item = missing_item_data.to_dict()
            missing.append(missing_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
                "errors": errors,
                "missing": missing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.einvoice_missing import EinvoiceMissing  # noqa: PLC0415
        from ..models.einvoice_not_ready_errors import EinvoiceNotReadyErrors  # noqa: PLC0415

        d = dict(src_dict)
        message = cast(Literal["The document is not ready for this e-invoice format."], d.pop("message"))
        if message != "The document is not ready for this e-invoice format.":
            raise ValueError(
                f"message must match const 'The document is not ready for this e-invoice format.', got '{message}'"
            )

        errors = EinvoiceNotReadyErrors.from_dict(d.pop("errors"))

        missing = []
        _missing = d.pop("missing")
        for missing_item_data in _missing:
            missing_item = EinvoiceMissing.from_dict(missing_item_data)

            missing.append(missing_item)

        einvoice_not_ready = cls(
            message=message,
            errors=errors,
            missing=missing,
        )

        return einvoice_not_ready
