from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.set_invoice_status_files_body_status import SetInvoiceStatusFilesBodyStatus

T = TypeVar("T", bound="SetInvoiceStatusFilesBody")


@_attrs_define
class SetInvoiceStatusFilesBody:
    """
    Attributes:
        status (SetInvoiceStatusFilesBodyStatus): The new stored status: 1 Draft, 2 Due, 4 Part Paid, 5 Paid, 20
            Cancelled (3, Overdue, is derived and not settable).
    """

    status: SetInvoiceStatusFilesBodyStatus
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
        status = SetInvoiceStatusFilesBodyStatus(d.pop("status"))

        set_invoice_status_files_body = cls(
            status=status,
        )

        set_invoice_status_files_body.additional_properties = d
        return set_invoice_status_files_body

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
