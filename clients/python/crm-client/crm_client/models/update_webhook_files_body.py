from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.update_webhook_files_body_enabled import UpdateWebhookFilesBodyEnabled
from ..models.update_webhook_files_body_events_item import UpdateWebhookFilesBodyEventsItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateWebhookFilesBody")


@_attrs_define
class UpdateWebhookFilesBody:
    """
    Attributes:
        url (str | Unset):
        description (Literal[''] | str | Unset):
        events (list[UpdateWebhookFilesBodyEventsItem] | Unset): `events[]=note.created&events[]=invoice.paid`, or
            `events[]=*`.
        enabled (UpdateWebhookFilesBodyEnabled | Unset): `1`/`true` or `0`/`false`.
    """

    url: str | Unset = UNSET
    description: Literal[""] | str | Unset = UNSET
    events: list[UpdateWebhookFilesBodyEventsItem] | Unset = UNSET
    enabled: UpdateWebhookFilesBodyEnabled | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        description: Literal[""] | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)

        enabled: str | Unset = UNSET
        if not isinstance(self.enabled, Unset):
            enabled = self.enabled.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if description is not UNSET:
            field_dict["description"] = description
        if events is not UNSET:
            field_dict["events[]"] = events
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        if not isinstance(self.url, Unset):
            files.append(("url", (None, str(self.url).encode(), "text/plain")))

        if not isinstance(self.description, Unset):
            if isinstance(self.description, str):
                files.append(("description", (None, str(self.description).encode(), "text/plain")))
            else:
                files.append(("description", (None, self.description, "text/plain")))

        if not isinstance(self.events, Unset):
            for events_item_element in self.events:
                files.append(("events[]", (None, str(events_item_element.value).encode(), "text/plain")))

        if not isinstance(self.enabled, Unset):
            files.append(("enabled", (None, str(self.enabled.value).encode(), "text/plain")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        def _parse_description(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            description_type_1 = cast(Literal[""], data)
            if description_type_1 != "":
                raise ValueError(f"description_type_1 must match const '', got '{description_type_1}'")
            return description_type_1
            return cast(Literal[""] | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _events = d.pop("events[]", UNSET)
        events: list[UpdateWebhookFilesBodyEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = UpdateWebhookFilesBodyEventsItem(events_item_data)

                events.append(events_item)

        _enabled = d.pop("enabled", UNSET)
        enabled: UpdateWebhookFilesBodyEnabled | Unset
        if isinstance(_enabled, Unset):
            enabled = UNSET
        else:
            enabled = UpdateWebhookFilesBodyEnabled(_enabled)

        update_webhook_files_body = cls(
            url=url,
            description=description,
            events=events,
            enabled=enabled,
        )

        update_webhook_files_body.additional_properties = d
        return update_webhook_files_body

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
