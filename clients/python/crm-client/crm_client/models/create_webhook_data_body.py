from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_webhook_data_body_enabled import CreateWebhookDataBodyEnabled
from ..models.create_webhook_data_body_events_item import CreateWebhookDataBodyEventsItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateWebhookDataBody")


@_attrs_define
class CreateWebhookDataBody:
    """
    Attributes:
        url (str):
        events (list[CreateWebhookDataBodyEventsItem]): `events[]=note.created&events[]=invoice.paid`, or `events[]=*`.
        description (Literal[''] | str | Unset):
        enabled (CreateWebhookDataBodyEnabled | Unset): `1`/`true` or `0`/`false`.
    """

    url: str
    events: list[CreateWebhookDataBodyEventsItem]
    description: Literal[""] | str | Unset = UNSET
    enabled: CreateWebhookDataBodyEnabled | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        description: Literal[""] | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled: str | Unset = UNSET
        if not isinstance(self.enabled, Unset):
            enabled = self.enabled.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "events[]": events,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        events = []
        _events = d.pop("events[]")
        for events_item_data in _events:
            events_item = CreateWebhookDataBodyEventsItem(events_item_data)

            events.append(events_item)

        def _parse_description(data: object) -> Literal[""] | str | Unset:
            if isinstance(data, Unset):
                return data
            description_type_1 = cast(Literal[""], data)
            if description_type_1 != "":
                raise ValueError(f"description_type_1 must match const '', got '{description_type_1}'")
            return description_type_1
            return cast(Literal[""] | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _enabled = d.pop("enabled", UNSET)
        enabled: CreateWebhookDataBodyEnabled | Unset
        if isinstance(_enabled, Unset):
            enabled = UNSET
        else:
            enabled = CreateWebhookDataBodyEnabled(_enabled)

        create_webhook_data_body = cls(
            url=url,
            events=events,
            description=description,
            enabled=enabled,
        )

        create_webhook_data_body.additional_properties = d
        return create_webhook_data_body

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
