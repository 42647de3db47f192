from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Bank")


@_attrs_define
class Bank:
    """A bank account.

    Attributes:
        iban (None | str):
        bic (None | str):
        account_name (None | str):
    """

    iban: None | str
    bic: None | str
    account_name: None | str

    def to_dict(self) -> dict[str, Any]:
        iban: None | str
        iban = self.iban

        bic: None | str
        bic = self.bic

        account_name: None | str
        account_name = self.account_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "iban": iban,
                "bic": bic,
                "account_name": account_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_iban(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        iban = _parse_iban(d.pop("iban"))

        def _parse_bic(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        bic = _parse_bic(d.pop("bic"))

        def _parse_account_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        account_name = _parse_account_name(d.pop("account_name"))

        bank = cls(
            iban=iban,
            bic=bic,
            account_name=account_name,
        )

        return bank
