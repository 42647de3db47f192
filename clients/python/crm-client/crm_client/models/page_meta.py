from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PageMeta")


@_attrs_define
class PageMeta:
    """Pagination of a list response.

    Attributes:
        current_page (int):
        per_page (int):
        total (int):
        last_page (int): `max(1, ceil(total / per_page))`.
        next_cursor (None | str): The `cursor` of the next page; null after the last page.
        prev_cursor (None | str): The `cursor` of the previous page; null on the first page.
        truncated (bool | Unset): Present only on a page of estimates or invoices that stopped before `per_page` records
            because they reached the list byte budget (4 MiB of JSON, estimated from the records' stored text; always at
            least one record). `next_cursor` then goes on right after the last record returned: follow it (a page number
            would skip the records left out), or ask for a smaller `limit`.
    """

    current_page: int
    per_page: int
    total: int
    last_page: int
    next_cursor: None | str
    prev_cursor: None | str
    truncated: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        current_page = self.current_page

        per_page = self.per_page

        total = self.total

        last_page = self.last_page

        next_cursor: None | str
        next_cursor = self.next_cursor

        prev_cursor: None | str
        prev_cursor = self.prev_cursor

        truncated = self.truncated

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "current_page": current_page,
                "per_page": per_page,
                "total": total,
                "last_page": last_page,
                "next_cursor": next_cursor,
                "prev_cursor": prev_cursor,
            }
        )
        if truncated is not UNSET:
            field_dict["truncated"] = truncated

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        current_page = d.pop("current_page")

        per_page = d.pop("per_page")

        total = d.pop("total")

        last_page = d.pop("last_page")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        def _parse_prev_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        prev_cursor = _parse_prev_cursor(d.pop("prev_cursor"))

        truncated = d.pop("truncated", UNSET)

        page_meta = cls(
            current_page=current_page,
            per_page=per_page,
            total=total,
            last_page=last_page,
            next_cursor=next_cursor,
            prev_cursor=prev_cursor,
            truncated=truncated,
        )

        return page_meta
