from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.boolean_input_type_1 import BooleanInputType1
from ..models.boolean_input_type_2 import BooleanInputType2
from ..models.update_webhook_json_body_events_item import UpdateWebhookJsonBodyEventsItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateWebhookJsonBody")


@_attrs_define
class UpdateWebhookJsonBody:
    """
    Attributes:
        url (str | Unset): An absolute URL.
        description (Literal[''] | None | str | Unset): What it is for: at most 250 characters, one line.
        events (list[UpdateWebhookJsonBodyEventsItem] | Unset): The event types to receive (each once), or `["*"]` for
            every event the key may read. Each listed type must be readable by the key (every area its data carries:
            `estimate.converted` carries an invoice too), else 422 on `events` naming them. `webhook.test` is not listed: it
            goes only to the endpoint that asked.
        enabled (bool | BooleanInputType1 | BooleanInputType2 | Unset): `true`/`false`, `1`/`0` (as Laravel's `boolean`
            rule reads them).
    """

    url: str | Unset = UNSET
    description: Literal[""] | None | str | Unset = UNSET
    events: list[UpdateWebhookJsonBodyEventsItem] | Unset = UNSET
    enabled: bool | BooleanInputType1 | BooleanInputType2 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        description: Literal[""] | None | str | Unset
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

        enabled: bool | int | str | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        elif isinstance(self.enabled, BooleanInputType1):
            enabled = self.enabled.value
        elif isinstance(self.enabled, BooleanInputType2):
            enabled = self.enabled.value
        else:
            enabled = self.enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if description is not UNSET:
            field_dict["description"] = description
        if events is not UNSET:
            field_dict["events"] = events
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        def _parse_description(data: object) -> Literal[""] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            componentsschemas_blank_type_1 = cast(Literal[""], data)
            if componentsschemas_blank_type_1 != "":
                raise ValueError(
                    f"/components/schemas/Blank_type_1 must match const '', got '{componentsschemas_blank_type_1}'"
                )
            return componentsschemas_blank_type_1
            return cast(Literal[""] | None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _events = d.pop("events", UNSET)
        events: list[UpdateWebhookJsonBodyEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = UpdateWebhookJsonBodyEventsItem(events_item_data)

                events.append(events_item)

        def _parse_enabled(data: object) -> bool | BooleanInputType1 | BooleanInputType2 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_boolean_input_type_1 = BooleanInputType1(data)

                return componentsschemas_boolean_input_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, int):
                    raise TypeError()
                componentsschemas_boolean_input_type_2 = BooleanInputType2(data)

                return componentsschemas_boolean_input_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | BooleanInputType1 | BooleanInputType2 | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        update_webhook_json_body = cls(
            url=url,
            description=description,
            events=events,
            enabled=enabled,
        )

        update_webhook_json_body.additional_properties = d
        return update_webhook_json_body

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
