from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.update_milestone_json_body_milestone_color import UpdateMilestoneJsonBodyMilestoneColor

T = TypeVar("T", bound="UpdateMilestoneJsonBody")


@_attrs_define
class UpdateMilestoneJsonBody:
    """
    Attributes:
        milestone_title (str): Text of at most 250 characters once trimmed and normalised to NFC, no HTML tags, one
            line: no line breaks, tabs, control characters, or invisible or bidi control characters (joiners, variation
            selectors and tags only inside emoji and script sequences); not blank.
        milestone_color (UpdateMilestoneJsonBodyMilestoneColor): Colour key.
    """

    milestone_title: str
    milestone_color: UpdateMilestoneJsonBodyMilestoneColor
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        milestone_title = self.milestone_title

        milestone_color = self.milestone_color.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "milestone_title": milestone_title,
                "milestone_color": milestone_color,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        milestone_title = d.pop("milestone_title")

        milestone_color = UpdateMilestoneJsonBodyMilestoneColor(d.pop("milestone_color"))

        update_milestone_json_body = cls(
            milestone_title=milestone_title,
            milestone_color=milestone_color,
        )

        update_milestone_json_body.additional_properties = d
        return update_milestone_json_body

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
