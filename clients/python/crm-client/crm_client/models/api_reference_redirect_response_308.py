from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ApiReferenceRedirectResponse308")


@_attrs_define
class ApiReferenceRedirectResponse308:
    """
    Attributes:
        message (Literal['The API reference is at /docs.']):
    """

    message: Literal["The API reference is at /docs."]

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = cast(Literal["The API reference is at /docs."], d.pop("message"))
        if message != "The API reference is at /docs.":
            raise ValueError(f"message must match const 'The API reference is at /docs.', got '{message}'")

        api_reference_redirect_response_308 = cls(
            message=message,
        )

        return api_reference_redirect_response_308
