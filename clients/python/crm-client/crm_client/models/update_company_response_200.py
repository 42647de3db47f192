from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.company import Company


T = TypeVar("T", bound="UpdateCompanyResponse200")


@_attrs_define
class UpdateCompanyResponse200:
    """
    Attributes:
        data (Company): The company: the seller on every document (API.md §17).
        message (Literal['Company updated successfully.']):
    """

    data: Company
    message: Literal["Company updated successfully."]

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
        from ..models.company import Company  # noqa: PLC0415

        d = dict(src_dict)
        data = Company.from_dict(d.pop("data"))

        message = cast(Literal["Company updated successfully."], d.pop("message"))
        if message != "Company updated successfully.":
            raise ValueError(f"message must match const 'Company updated successfully.', got '{message}'")

        update_company_response_200 = cls(
            data=data,
            message=message,
        )

        return update_company_response_200
