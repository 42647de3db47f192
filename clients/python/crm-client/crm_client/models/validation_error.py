from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.validation_error_errors import ValidationErrorErrors


T = TypeVar("T", bound="ValidationError")


@_attrs_define
class ValidationError:
    """A validation failure (422): every failing field with Laravel-style messages.

    Attributes:
        message (Literal['The given data was invalid.']):
        errors (ValidationErrorErrors): Every failing field (array positions written with dots: `items.0.rate`) with its
            messages.
    """

    message: Literal["The given data was invalid."]
    errors: ValidationErrorErrors

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        errors = self.errors.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
                "errors": errors,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.validation_error_errors import ValidationErrorErrors  # noqa: PLC0415

        d = dict(src_dict)
        message = cast(Literal["The given data was invalid."], d.pop("message"))
        if message != "The given data was invalid.":
            raise ValueError(f"message must match const 'The given data was invalid.', got '{message}'")

        errors = ValidationErrorErrors.from_dict(d.pop("errors"))

        validation_error = cls(
            message=message,
            errors=errors,
        )

        return validation_error
