from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    token: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/c/{token}".format(
            token=quote(str(token), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = response.text
        return response_404

    if response.status_code == 429:
        response_429 = response.text
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Error | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Any | Error | str]:
    """The client's page of an estimate or invoice

     What the client link opens, made for a person: the company, the number, the client, the dates, the
    status in words, every line, the totals that are not zero and the final amount (the API's own
    figures), notes, terms a link to the PDF and, for an issued invoice or credit note ready for the
    service's e-invoice format (`--mail-attach-einvoice`), a link to the e-invoice. An estimate shown
    `new` has Accept and Decline forms; an invoice has none. No JavaScript; responsive; prints cleanly.

    Args:
        token (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | str]
    """

    kwargs = _get_kwargs(
        token=token,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    token: str,
    *,
    client: AuthenticatedClient | Client,
) -> Any | Error | str | None:
    """The client's page of an estimate or invoice

     What the client link opens, made for a person: the company, the number, the client, the dates, the
    status in words, every line, the totals that are not zero and the final amount (the API's own
    figures), notes, terms a link to the PDF and, for an issued invoice or credit note ready for the
    service's e-invoice format (`--mail-attach-einvoice`), a link to the e-invoice. An estimate shown
    `new` has Accept and Decline forms; an invoice has none. No JavaScript; responsive; prints cleanly.

    Args:
        token (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | str
    """

    return sync_detailed(
        token=token,
        client=client,
    ).parsed


async def asyncio_detailed(
    token: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Any | Error | str]:
    """The client's page of an estimate or invoice

     What the client link opens, made for a person: the company, the number, the client, the dates, the
    status in words, every line, the totals that are not zero and the final amount (the API's own
    figures), notes, terms a link to the PDF and, for an issued invoice or credit note ready for the
    service's e-invoice format (`--mail-attach-einvoice`), a link to the e-invoice. An estimate shown
    `new` has Accept and Decline forms; an invoice has none. No JavaScript; responsive; prints cleanly.

    Args:
        token (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | str]
    """

    kwargs = _get_kwargs(
        token=token,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    token: str,
    *,
    client: AuthenticatedClient | Client,
) -> Any | Error | str | None:
    """The client's page of an estimate or invoice

     What the client link opens, made for a person: the company, the number, the client, the dates, the
    status in words, every line, the totals that are not zero and the final amount (the API's own
    figures), notes, terms a link to the PDF and, for an issued invoice or credit note ready for the
    service's e-invoice format (`--mail-attach-einvoice`), a link to the e-invoice. An estimate shown
    `new` has Accept and Decline forms; an invoice has none. No JavaScript; responsive; prints cleanly.

    Args:
        token (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | str
    """

    return (
        await asyncio_detailed(
            token=token,
            client=client,
        )
    ).parsed
