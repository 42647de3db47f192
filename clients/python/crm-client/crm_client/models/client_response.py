from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.client_response_decision import ClientResponseDecision

T = TypeVar("T", bound="ClientResponse")


@_attrs_define
class ClientResponse:
    """The client's answer to an estimate, given on its page.

    Attributes:
        decision (ClientResponseDecision):
        reason (None | str): The reason given with a decline (`null` without one, and for an accept).
        at (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
    """

    decision: ClientResponseDecision
    reason: None | str
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        decision = self.decision.value

        reason: None | str
        reason = self.reason

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "decision": decision,
                "reason": reason,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        decision = ClientResponseDecision(d.pop("decision"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        client_response = cls(
            decision=decision,
            reason=reason,
            at=at,
        )

        return client_response
