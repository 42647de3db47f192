from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.milestone import Milestone


T = TypeVar("T", bound="CreateMilestoneResponse201")


@_attrs_define
class CreateMilestoneResponse201:
    """
    Attributes:
        data (Milestone): A project milestone.
        message (Literal['Milestone created successfully.']):
    """

    data: Milestone
    message: Literal["Milestone created successfully."]

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
        from ..models.milestone import Milestone  # noqa: PLC0415

        d = dict(src_dict)
        data = Milestone.from_dict(d.pop("data"))

        message = cast(Literal["Milestone created successfully."], d.pop("message"))
        if message != "Milestone created successfully.":
            raise ValueError(f"message must match const 'Milestone created successfully.', got '{message}'")

        create_milestone_response_201 = cls(
            data=data,
            message=message,
        )

        return create_milestone_response_201
