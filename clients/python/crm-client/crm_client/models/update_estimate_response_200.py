from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.estimate import Estimate


T = TypeVar("T", bound="UpdateEstimateResponse200")


@_attrs_define
class UpdateEstimateResponse200:
    """
    Attributes:
        data (Estimate): An estimate with its line items and computed totals.
        message (Literal['Estimate updated successfully.']):
    """

    data: Estimate
    message: Literal["Estimate updated successfully."]

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
        from ..models.estimate import Estimate  # noqa: PLC0415

        d = dict(src_dict)
        data = Estimate.from_dict(d.pop("data"))

        message = cast(Literal["Estimate updated successfully."], d.pop("message"))
        if message != "Estimate updated successfully.":
            raise ValueError(f"message must match const 'Estimate updated successfully.', got '{message}'")

        update_estimate_response_200 = cls(
            data=data,
            message=message,
        )

        return update_estimate_response_200
