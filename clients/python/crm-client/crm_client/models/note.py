from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.note_visibility import NoteVisibility

if TYPE_CHECKING:
    from ..models.note_resource import NoteResource
    from ..models.record_dates import RecordDates


T = TypeVar("T", bound="Note")


@_attrs_define
class Note:
    """A note.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        title (str):
        description (str):
        visibility (NoteVisibility):
        resource (NoteResource): The attached resource; both null for a standalone note.
        creator_id (int): A record id: a positive 64-bit integer.
        tags (list[str]): Tag titles, in order.
        dates (RecordDates): Creation and last update times.
    """

    id: int
    title: str
    description: str
    visibility: NoteVisibility
    resource: NoteResource
    creator_id: int
    tags: list[str]
    dates: RecordDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        description = self.description

        visibility = self.visibility.value

        resource = self.resource.to_dict()

        creator_id = self.creator_id

        tags = self.tags

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "description": description,
                "visibility": visibility,
                "resource": resource,
                "creator_id": creator_id,
                "tags": tags,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.note_resource import NoteResource  # noqa: PLC0415
        from ..models.record_dates import RecordDates  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        description = d.pop("description")

        visibility = NoteVisibility(d.pop("visibility"))

        resource = NoteResource.from_dict(d.pop("resource"))

        creator_id = d.pop("creator_id")

        tags = cast(list[str], d.pop("tags"))

        dates = RecordDates.from_dict(d.pop("dates"))

        note = cls(
            id=id,
            title=title,
            description=description,
            visibility=visibility,
            resource=resource,
            creator_id=creator_id,
            tags=tags,
            dates=dates,
        )

        return note
