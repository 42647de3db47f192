from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.einvoice_not_ready import EinvoiceNotReady
from ...models.error import Error
from ...models.get_credit_note_einvoice_format import GetCreditNoteEinvoiceFormat
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    format_: GetCreditNoteEinvoiceFormat,
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
        "url": "/api/credit-notes/{id}/einvoice".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | EinvoiceNotReady | ValidationError | Error | str | None:
    if response.status_code == 200:
        response_200 = cast(str, response.content)
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

        def _parse_response_422(data: object) -> EinvoiceNotReady | ValidationError:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_422_type_0 = ValidationError.from_dict(data)

                return response_422_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_422_type_1 = EinvoiceNotReady.from_dict(data)

            return response_422_type_1

        response_422 = _parse_response_422(response.json())

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
) -> Response[Any | EinvoiceNotReady | ValidationError | Error | str]:
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
    format_: GetCreditNoteEinvoiceFormat,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | EinvoiceNotReady | ValidationError | Error | str]:
    """The credit note as an EN 16931 e-invoice

     The issued credit note in an EN 16931 format (API.md §19), every figure the API's own to the cent:
    the document's figures are checked against EN 16931's arithmetic (BR-CO-10…16, the VAT breakdown)
    with zero tolerance, and a document that EN 16931 cannot state exactly, or that lacks a business
    term the format needs, is a 422 listing all of it (the same list as
    `getCreditNoteEinvoiceReadiness`). Never approximated.

    Args:
        id (int):
        format_ (GetCreditNoteEinvoiceFormat):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EinvoiceNotReady | ValidationError | Error | str]
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
    format_: GetCreditNoteEinvoiceFormat,
    if_none_match: str | Unset = UNSET,
) -> Any | EinvoiceNotReady | ValidationError | Error | str | None:
    """The credit note as an EN 16931 e-invoice

     The issued credit note in an EN 16931 format (API.md §19), every figure the API's own to the cent:
    the document's figures are checked against EN 16931's arithmetic (BR-CO-10…16, the VAT breakdown)
    with zero tolerance, and a document that EN 16931 cannot state exactly, or that lacks a business
    term the format needs, is a 422 listing all of it (the same list as
    `getCreditNoteEinvoiceReadiness`). Never approximated.

    Args:
        id (int):
        format_ (GetCreditNoteEinvoiceFormat):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EinvoiceNotReady | ValidationError | Error | str
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
    format_: GetCreditNoteEinvoiceFormat,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | EinvoiceNotReady | ValidationError | Error | str]:
    """The credit note as an EN 16931 e-invoice

     The issued credit note in an EN 16931 format (API.md §19), every figure the API's own to the cent:
    the document's figures are checked against EN 16931's arithmetic (BR-CO-10…16, the VAT breakdown)
    with zero tolerance, and a document that EN 16931 cannot state exactly, or that lacks a business
    term the format needs, is a 422 listing all of it (the same list as
    `getCreditNoteEinvoiceReadiness`). Never approximated.

    Args:
        id (int):
        format_ (GetCreditNoteEinvoiceFormat):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EinvoiceNotReady | ValidationError | Error | str]
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
    format_: GetCreditNoteEinvoiceFormat,
    if_none_match: str | Unset = UNSET,
) -> Any | EinvoiceNotReady | ValidationError | Error | str | None:
    """The credit note as an EN 16931 e-invoice

     The issued credit note in an EN 16931 format (API.md §19), every figure the API's own to the cent:
    the document's figures are checked against EN 16931's arithmetic (BR-CO-10…16, the VAT breakdown)
    with zero tolerance, and a document that EN 16931 cannot state exactly, or that lacks a business
    term the format needs, is a 422 listing all of it (the same list as
    `getCreditNoteEinvoiceReadiness`). Never approximated.

    Args:
        id (int):
        format_ (GetCreditNoteEinvoiceFormat):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EinvoiceNotReady | ValidationError | Error | str
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            format_=format_,
            if_none_match=if_none_match,
        )
    ).parsed
