from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ClientLink")


@_attrs_define
class ClientLink:
    """The client's link (API.md §12): the page at which the client reads the record without a key, made when the record is
    first published or emailed, or by `POST …/link`. `null` on the record while it has no working link (never made,
    revoked, or expired).

        Attributes:
            url (str): `<public url>/c/<token>`: the token is 64 hex digits (256 random bits).
            expires (datetime.datetime): A UTC timestamp, ISO 8601 with microseconds.
    """

    url: str
    expires: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        expires = self.expires.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "expires": expires,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        expires = datetime.datetime.fromisoformat(d.pop("expires"))

        client_link = cls(
            url=url,
            expires=expires,
        )

        return client_link
