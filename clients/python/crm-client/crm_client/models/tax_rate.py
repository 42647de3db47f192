from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.tax_rate_status import TaxRateStatus
from ..models.tax_rate_vat_category import TaxRateVatCategory

if TYPE_CHECKING:
    from ..models.record_dates import RecordDates


T = TypeVar("T", bound="TaxRate")


@_attrs_define
class TaxRate:
    """A tax rate with its EN 16931 VAT category (API.md §17).

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        name (str):
        rate (str): A percentage as decimal text with two decimals (`"7.50"`).
        status (TaxRateStatus):
        vat_category (TaxRateVatCategory):
        exemption_reason (None | str):
        exemption_code (None | str):
        system (bool): The system "No Tax" rate: its rate and category never change and it is never deleted.
        in_use (bool): Whether a document uses it: its rate and category are then fixed.
        dates (RecordDates): Creation and last update times.
    """

    id: int
    name: str
    rate: str
    status: TaxRateStatus
    vat_category: TaxRateVatCategory
    exemption_reason: None | str
    exemption_code: None | str
    system: bool
    in_use: bool
    dates: RecordDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        rate = self.rate

        status = self.status.value

        vat_category = self.vat_category.value

        exemption_reason: None | str
        exemption_reason = self.exemption_reason

        exemption_code: None | str
        exemption_code = self.exemption_code

        system = self.system

        in_use = self.in_use

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "rate": rate,
                "status": status,
                "vat_category": vat_category,
                "exemption_reason": exemption_reason,
                "exemption_code": exemption_code,
                "system": system,
                "in_use": in_use,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.record_dates import RecordDates  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        rate = d.pop("rate")

        status = TaxRateStatus(d.pop("status"))

        vat_category = TaxRateVatCategory(d.pop("vat_category"))

        def _parse_exemption_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        exemption_reason = _parse_exemption_reason(d.pop("exemption_reason"))

        def _parse_exemption_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        exemption_code = _parse_exemption_code(d.pop("exemption_code"))

        system = d.pop("system")

        in_use = d.pop("in_use")

        dates = RecordDates.from_dict(d.pop("dates"))

        tax_rate = cls(
            id=id,
            name=name,
            rate=rate,
            status=status,
            vat_category=vat_category,
            exemption_reason=exemption_reason,
            exemption_code=exemption_code,
            system=system,
            in_use=in_use,
            dates=dates,
        )

        return tax_rate
