from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.contract_status import ContractStatus

if TYPE_CHECKING:
    from ..models.contract_dates import ContractDates
    from ..models.contract_signing import ContractSigning
    from ..models.named import Named


T = TypeVar("T", bound="Contract")


@_attrs_define
class Contract:
    """A contract.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        title (str):
        status (ContractStatus): Derived (read-only): `draft` until published; then `awaiting_signatures`, `active` when
            both parties signed, `expired` after the end date.
        value (None | str):
        body (None | str): HTML.
        client (Named): A linked record with its display name.
        category (Named): A linked record with its display name.
        project_id (int | None):
        lead_id (int | None):
        dates (ContractDates):
        signing (ContractSigning): Read-only signing state.
        tags (list[str]): Tag titles, in order.
    """

    id: int
    title: str
    status: ContractStatus
    value: None | str
    body: None | str
    client: Named
    category: Named
    project_id: int | None
    lead_id: int | None
    dates: ContractDates
    signing: ContractSigning
    tags: list[str]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        status = self.status.value

        value: None | str
        value = self.value

        body: None | str
        body = self.body

        client = self.client.to_dict()

        category = self.category.to_dict()

        project_id: int | None
        project_id = self.project_id

        lead_id: int | None
        lead_id = self.lead_id

        dates = self.dates.to_dict()

        signing = self.signing.to_dict()

        tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "status": status,
                "value": value,
                "body": body,
                "client": client,
                "category": category,
                "project_id": project_id,
                "lead_id": lead_id,
                "dates": dates,
                "signing": signing,
                "tags": tags,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.contract_dates import ContractDates  # noqa: PLC0415
        from ..models.contract_signing import ContractSigning  # noqa: PLC0415
        from ..models.named import Named  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        status = ContractStatus(d.pop("status"))

        def _parse_value(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        value = _parse_value(d.pop("value"))

        def _parse_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        body = _parse_body(d.pop("body"))

        client = Named.from_dict(d.pop("client"))

        category = Named.from_dict(d.pop("category"))

        def _parse_project_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        project_id = _parse_project_id(d.pop("project_id"))

        def _parse_lead_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        lead_id = _parse_lead_id(d.pop("lead_id"))

        dates = ContractDates.from_dict(d.pop("dates"))

        signing = ContractSigning.from_dict(d.pop("signing"))

        tags = cast(list[str], d.pop("tags"))

        contract = cls(
            id=id,
            title=title,
            status=status,
            value=value,
            body=body,
            client=client,
            category=category,
            project_id=project_id,
            lead_id=lead_id,
            dates=dates,
            signing=signing,
            tags=tags,
        )

        return contract
