from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.contract import Contract


T = TypeVar("T", bound="CreateContractResponse201")


@_attrs_define
class CreateContractResponse201:
    """
    Attributes:
        data (Contract): A contract.
        message (Literal['Contract created successfully.']):
    """

    data: Contract
    message: Literal["Contract created successfully."]

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
        from ..models.contract import Contract  # noqa: PLC0415

        d = dict(src_dict)
        data = Contract.from_dict(d.pop("data"))

        message = cast(Literal["Contract created successfully."], d.pop("message"))
        if message != "Contract created successfully.":
            raise ValueError(f"message must match const 'Contract created successfully.', got '{message}'")

        create_contract_response_201 = cls(
            data=data,
            message=message,
        )

        return create_contract_response_201
