from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.project import Project


T = TypeVar("T", bound="CreateProjectResponse201")


@_attrs_define
class CreateProjectResponse201:
    """
    Attributes:
        data (Project): A project (API.md §17).
        message (Literal['Project created successfully.']):
    """

    data: Project
    message: Literal["Project created successfully."]

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.project import Project  # noqa: PLC0415

        d = dict(src_dict)
        data = Project.from_dict(d.pop("data"))

        message = cast(Literal["Project created successfully."], d.pop("message"))
        if message != "Project created successfully.":
            raise ValueError(f"message must match const 'Project created successfully.', got '{message}'")

        create_project_response_201 = cls(
            data=data,
            message=message,
        )

        return create_project_response_201
