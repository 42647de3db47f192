from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.page_meta import PageMeta
    from ..models.project import Project


T = TypeVar("T", bound="ListProjectsResponse200")


@_attrs_define
class ListProjectsResponse200:
    """
    Attributes:
        data (list[Project]):
        meta (PageMeta): Pagination of a list response.
        message (Literal['Projects retrieved successfully.']):
    """

    data: list[Project]
    meta: PageMeta
    message: Literal["Projects retrieved successfully."]

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        meta = self.meta.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "meta": meta,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.page_meta import PageMeta  # noqa: PLC0415
        from ..models.project import Project  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Project.from_dict(data_item_data)

            data.append(data_item)

        meta = PageMeta.from_dict(d.pop("meta"))

        message = cast(Literal["Projects retrieved successfully."], d.pop("message"))
        if message != "Projects retrieved successfully.":
            raise ValueError(f"message must match const 'Projects retrieved successfully.', got '{message}'")

        list_projects_response_200 = cls(
            data=data,
            meta=meta,
            message=message,
        )

        return list_projects_response_200
