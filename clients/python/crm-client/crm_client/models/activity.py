from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.activity_actor_type_0 import ActivityActorType0
    from ..models.activity_actor_type_1 import ActivityActorType1
    from ..models.activity_actor_type_2 import ActivityActorType2
    from ..models.activity_changes import ActivityChanges
    from ..models.activity_resource import ActivityResource


T = TypeVar("T", bound="Activity")


@_attrs_define
class Activity:
    """One change (API.md §21).

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        at (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
        type_ (str): What happened: the change's webhook event type (`invoice.published`), or a webhook endpoint's own
            change (`webhook.secret_rotated`).
        resource (ActivityResource): A record: its resource type and id.
        actor (ActivityActorType0 | ActivityActorType1 | ActivityActorType2): Who made the change: an API key (its id,
            its name and the user it acts as), a client through the link of a record, or a part of the service (`outbox`,
            `scheduler`, `service`).
        changes (ActivityChanges): `{field: [before, after]}` for each field that changed.
    """

    id: int
    at: datetime.datetime
    type_: str
    resource: ActivityResource
    actor: ActivityActorType0 | ActivityActorType1 | ActivityActorType2
    changes: ActivityChanges

    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_actor_type_0 import ActivityActorType0  # noqa: PLC0415
        from ..models.activity_actor_type_1 import ActivityActorType1  # noqa: PLC0415

        id = self.id

        at = self.at.isoformat()

        type_ = self.type_

        resource = self.resource.to_dict()

        actor: dict[str, Any]
        if isinstance(self.actor, ActivityActorType0):
            actor = self.actor.to_dict()
        elif isinstance(self.actor, ActivityActorType1):
            actor = self.actor.to_dict()
        else:
            actor = self.actor.to_dict()

        changes = self.changes.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "at": at,
                "type": type_,
                "resource": resource,
                "actor": actor,
                "changes": changes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_actor_type_0 import ActivityActorType0  # noqa: PLC0415
        from ..models.activity_actor_type_1 import ActivityActorType1  # noqa: PLC0415
        from ..models.activity_actor_type_2 import ActivityActorType2  # noqa: PLC0415
        from ..models.activity_changes import ActivityChanges  # noqa: PLC0415
        from ..models.activity_resource import ActivityResource  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        type_ = d.pop("type")

        resource = ActivityResource.from_dict(d.pop("resource"))

        def _parse_actor(data: object) -> ActivityActorType0 | ActivityActorType1 | ActivityActorType2:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                actor_type_0 = ActivityActorType0.from_dict(data)

                return actor_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                actor_type_1 = ActivityActorType1.from_dict(data)

                return actor_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            actor_type_2 = ActivityActorType2.from_dict(data)

            return actor_type_2

        actor = _parse_actor(d.pop("actor"))

        changes = ActivityChanges.from_dict(d.pop("changes"))

        activity = cls(
            id=id,
            at=at,
            type_=type_,
            resource=resource,
            actor=actor,
            changes=changes,
        )

        return activity
