from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="IndexLinks")


@_attrs_define
class IndexLinks:
    """
    Attributes:
        reference (Literal['docs']):
        openapi (Literal['api/openapi.json']):
        health (Literal['healthz']):
        ready (Literal['readyz']):
    """

    reference: Literal["docs"]
    openapi: Literal["api/openapi.json"]
    health: Literal["healthz"]
    ready: Literal["readyz"]

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        openapi = self.openapi

        health = self.health

        ready = self.ready

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "openapi": openapi,
                "health": health,
                "ready": ready,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reference = cast(Literal["docs"], d.pop("reference"))
        if reference != "docs":
            raise ValueError(f"reference must match const 'docs', got '{reference}'")

        openapi = cast(Literal["api/openapi.json"], d.pop("openapi"))
        if openapi != "api/openapi.json":
            raise ValueError(f"openapi must match const 'api/openapi.json', got '{openapi}'")

        health = cast(Literal["healthz"], d.pop("health"))
        if health != "healthz":
            raise ValueError(f"health must match const 'healthz', got '{health}'")

        ready = cast(Literal["readyz"], d.pop("ready"))
        if ready != "readyz":
            raise ValueError(f"ready must match const 'readyz', got '{ready}'")

        index_links = cls(
            reference=reference,
            openapi=openapi,
            health=health,
            ready=ready,
        )

        return index_links
