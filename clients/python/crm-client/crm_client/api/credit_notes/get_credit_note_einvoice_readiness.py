from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_credit_note_einvoice_readiness_format import GetCreditNoteEinvoiceReadinessFormat
from ...models.get_credit_note_einvoice_readiness_response_200 import GetCreditNoteEinvoiceReadinessResponse200
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    format_: GetCreditNoteEinvoiceReadinessFormat,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    json_format_ = format_.value
    params["format"] = json_format_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/credit-notes/{id}/einvoice/readiness".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = GetCreditNoteEinvoiceReadinessResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = ValidationError.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = cast(Any, None)
        return response_431

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    format_: GetCreditNoteEinvoiceReadinessFormat,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError]:
    """Whether the credit note can be exported as an e-invoice

     Every business term the format needs that the records lack (the company's or client's VAT id,
    addresses, electronic addresses, the buyer reference, exemption reasons, …) and every figure the
    CRM's arithmetic made that EN 16931 cannot state exactly (VAT rounded per tax-inclusive line in
    `inline` mode, two taxes on one line, an adjustment that is not a rounding amount, a figure rounded
    differently), each with its business term, the API field and a sentence.

    Args:
        id (int):
        format_ (GetCreditNoteEinvoiceReadinessFormat):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    format_: GetCreditNoteEinvoiceReadinessFormat,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError | None:
    """Whether the credit note can be exported as an e-invoice

     Every business term the format needs that the records lack (the company's or client's VAT id,
    addresses, electronic addresses, the buyer reference, exemption reasons, …) and every figure the
    CRM's arithmetic made that EN 16931 cannot state exactly (VAT rounded per tax-inclusive line in
    `inline` mode, two taxes on one line, an adjustment that is not a rounding amount, a figure rounded
    differently), each with its business term, the API field and a sentence.

    Args:
        id (int):
        format_ (GetCreditNoteEinvoiceReadinessFormat):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError
    """

    return sync_detailed(
        id=id,
        client=client,
        format_=format_,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    format_: GetCreditNoteEinvoiceReadinessFormat,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError]:
    """Whether the credit note can be exported as an e-invoice

     Every business term the format needs that the records lack (the company's or client's VAT id,
    addresses, electronic addresses, the buyer reference, exemption reasons, …) and every figure the
    CRM's arithmetic made that EN 16931 cannot state exactly (VAT rounded per tax-inclusive line in
    `inline` mode, two taxes on one line, an adjustment that is not a rounding amount, a figure rounded
    differently), each with its business term, the API field and a sentence.

    Args:
        id (int):
        format_ (GetCreditNoteEinvoiceReadinessFormat):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    format_: GetCreditNoteEinvoiceReadinessFormat,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError | None:
    """Whether the credit note can be exported as an e-invoice

     Every business term the format needs that the records lack (the company's or client's VAT id,
    addresses, electronic addresses, the buyer reference, exemption reasons, …) and every figure the
    CRM's arithmetic made that EN 16931 cannot state exactly (VAT rounded per tax-inclusive line in
    `inline` mode, two taxes on one line, an adjustment that is not a rounding amount, a figure rounded
    differently), each with its business term, the API field and a sentence.

    Args:
        id (int):
        format_ (GetCreditNoteEinvoiceReadinessFormat):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | GetCreditNoteEinvoiceReadinessResponse200 | ValidationError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            format_=format_,
            if_none_match=if_none_match,
        )
    ).parsed
