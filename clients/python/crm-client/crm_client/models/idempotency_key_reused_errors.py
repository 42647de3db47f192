from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="IdempotencyKeyReusedErrors")


@_attrs_define
class IdempotencyKeyReusedErrors:
    """
    Attributes:
        idempotency_key (list[Literal['The idempotency key was already used for a different request.']]):
    """

    idempotency_key: list[Literal["The idempotency key was already used for a different request."]]

    def to_dict(self) -> dict[str, Any]:
        idempotency_key = self.idempotency_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "Idempotency-Key": idempotency_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        idempotency_key = []
        _idempotency_key = d.pop("Idempotency-Key")
        for idempotency_key_item_data in _idempotency_key:
            idempotency_key_item = cast(
                Literal["The idempotency key was already used for a different request."], idempotency_key_item_data
            )
            if idempotency_key_item != "The idempotency key was already used for a different request.":
                raise ValueError(
                    f"Idempotency-Key_item must match const 'The idempotency key was already used for a different request.', got '{idempotency_key_item}'"
                )
            idempotency_key.append(idempotency_key_item)

        idempotency_key_reused_errors = cls(
            idempotency_key=idempotency_key,
        )

        return idempotency_key_reused_errors
