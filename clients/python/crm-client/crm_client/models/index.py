from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.index_links import IndexLinks


T = TypeVar("T", bound="Index")


@_attrs_define
class Index:
    """
    Attributes:
        name (Literal['CRM business-records API']):
        version (str):
        message (str):
        links (IndexLinks):
    """

    name: Literal["CRM business-records API"]
    version: str
    message: str
    links: IndexLinks

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        version = self.version

        message = self.message

        links = self.links.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "version": version,
                "message": message,
                "links": links,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.index_links import IndexLinks  # noqa: PLC0415

        d = dict(src_dict)
        name = cast(Literal["CRM business-records API"], d.pop("name"))
        if name != "CRM business-records API":
            raise ValueError(f"name must match const 'CRM business-records API', got '{name}'")

        version = d.pop("version")

        message = d.pop("message")

        links = IndexLinks.from_dict(d.pop("links"))

        index = cls(
            name=name,
            version=version,
            message=message,
            links=links,
        )

        return index
