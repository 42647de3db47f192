from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Peppol")


@_attrs_define
class Peppol:
    """A Peppol endpoint (ISO 6523 scheme and id).

    Attributes:
        scheme (None | str):
        id (None | str):
    """

    scheme: None | str
    id: None | str

    def to_dict(self) -> dict[str, Any]:
        scheme: None | str
        scheme = self.scheme

        id: None | str
        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scheme": scheme,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_scheme(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        scheme = _parse_scheme(d.pop("scheme"))

        def _parse_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        id = _parse_id(d.pop("id"))

        peppol = cls(
            scheme=scheme,
            id=id,
        )

        return peppol
