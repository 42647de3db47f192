from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.milestone import Milestone


T = TypeVar("T", bound="ReorderMilestonesResponse200")


@_attrs_define
class ReorderMilestonesResponse200:
    """
    Attributes:
        data (list[Milestone]):
        message (Literal['Milestone positions updated successfully.']):
    """

    data: list[Milestone]
    message: Literal["Milestone positions updated successfully."]

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

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
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Milestone.from_dict(data_item_data)

            data.append(data_item)

        message = cast(Literal["Milestone positions updated successfully."], d.pop("message"))
        if message != "Milestone positions updated successfully.":
            raise ValueError(f"message must match const 'Milestone positions updated successfully.', got '{message}'")

        reorder_milestones_response_200 = cls(
            data=data,
            message=message,
        )

        return reorder_milestones_response_200
