from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.idempotency_key_reused_errors import IdempotencyKeyReusedErrors


T = TypeVar("T", bound="IdempotencyKeyReused")


@_attrs_define
class IdempotencyKeyReused:
    """An `Idempotency-Key` sent again with another request (422).

    Attributes:
        message (Literal['The idempotency key was already used for a different request.']):
        errors (IdempotencyKeyReusedErrors):
    """

    message: Literal["The idempotency key was already used for a different request."]
    errors: IdempotencyKeyReusedErrors

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
        from ..models.idempotency_key_reused_errors import IdempotencyKeyReusedErrors  # noqa: PLC0415

        d = dict(src_dict)
        message = cast(Literal["The idempotency key was already used for a different request."], d.pop("message"))
        if message != "The idempotency key was already used for a different request.":
            raise ValueError(
                f"message must match const 'The idempotency key was already used for a different request.', got '{message}'"
            )

        errors = IdempotencyKeyReusedErrors.from_dict(d.pop("errors"))

        idempotency_key_reused = cls(
            message=message,
            errors=errors,
        )

        return idempotency_key_reused
