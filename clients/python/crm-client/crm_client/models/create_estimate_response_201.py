from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.estimate import Estimate


T = TypeVar("T", bound="CreateEstimateResponse201")


@_attrs_define
class CreateEstimateResponse201:
    """
    Attributes:
        data (Estimate): An estimate with its line items and computed totals.
        message (Literal['Estimate created successfully.']):
    """

    data: Estimate
    message: Literal["Estimate created successfully."]

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

        message = cast(Literal["Estimate created successfully."], d.pop("message"))
        if message != "Estimate created successfully.":
            raise ValueError(f"message must match const 'Estimate created successfully.', got '{message}'")

        create_estimate_response_201 = cls(
            data=data,
            message=message,
        )

        return create_estimate_response_201
