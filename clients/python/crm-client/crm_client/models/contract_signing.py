from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.contract_signing_client_status import ContractSigningClientStatus
from ..models.contract_signing_provider_status import ContractSigningProviderStatus

T = TypeVar("T", bound="ContractSigning")


@_attrs_define
class ContractSigning:
    """Read-only signing state.

    Attributes:
        client_status (ContractSigningClientStatus):
        provider_status (ContractSigningProviderStatus):
    """

    client_status: ContractSigningClientStatus
    provider_status: ContractSigningProviderStatus

    def to_dict(self) -> dict[str, Any]:
        client_status = self.client_status.value

        provider_status = self.provider_status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "client_status": client_status,
                "provider_status": provider_status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_status = ContractSigningClientStatus(d.pop("client_status"))

        provider_status = ContractSigningProviderStatus(d.pop("provider_status"))

        contract_signing = cls(
            client_status=client_status,
            provider_status=provider_status,
        )

        return contract_signing
