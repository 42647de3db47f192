from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.set_estimate_status_files_body_status import SetEstimateStatusFilesBodyStatus

T = TypeVar("T", bound="SetEstimateStatusFilesBody")


@_attrs_define
class SetEstimateStatusFilesBody:
    """
    Attributes:
        status (SetEstimateStatusFilesBodyStatus): The new status (`expired` is derived, not settable).
    """

    status: SetEstimateStatusFilesBodyStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
            }
        )

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("status", (None, str(self.status.value).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = SetEstimateStatusFilesBodyStatus(d.pop("status"))

        set_estimate_status_files_body = cls(
            status=status,
        )

        set_estimate_status_files_body.additional_properties = d
        return set_estimate_status_files_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
