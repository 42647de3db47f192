from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.boolean_input_type_1 import BooleanInputType1
from ..models.boolean_input_type_2 import BooleanInputType2
from ..models.create_webhook_json_body_events_item import CreateWebhookJsonBodyEventsItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateWebhookJsonBody")


@_attrs_define
class CreateWebhookJsonBody:
    """
    Attributes:
        url (str): An absolute URL.
        events (list[CreateWebhookJsonBodyEventsItem]): The event types to receive (each once), or `["*"]` for every
            event the key may read. Each listed type must be readable by the key (every area its data carries:
            `estimate.converted` carries an invoice too), else 422 on `events` naming them. `webhook.test` is not listed: it
            goes only to the endpoint that asked.
        description (Literal[''] | None | str | Unset): What it is for: at most 250 characters, one line.
        enabled (bool | BooleanInputType1 | BooleanInputType2 | Unset): `true`/`false`, `1`/`0` (as Laravel's `boolean`
            rule reads them).
    """

    url: str
    events: list[CreateWebhookJsonBodyEventsItem]
    description: Literal[""] | None | str | Unset = UNSET
    enabled: bool | BooleanInputType1 | BooleanInputType2 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        description: Literal[""] | None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

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
        field_dict.update(
            {
                "url": url,
                "events": events,
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
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = CreateWebhookJsonBodyEventsItem(events_item_data)

            events.append(events_item)

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

        create_webhook_json_body = cls(
            url=url,
            events=events,
            description=description,
            enabled=enabled,
        )

        create_webhook_json_body.additional_properties = d
        return create_webhook_json_body

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
