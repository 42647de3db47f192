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
        "method": "post",
        "url": "/c/{token}/decline".format(
            token=quote(str(token), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | str | None:
    if response.status_code == 303:
        response_303 = cast(Any, None)
        return response_303

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = response.text
        return response_404

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = response.text
        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = response.text
        return response_422

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
    """Decline the estimate (the client's form)

     The page's Decline button: for an estimate shown `new`, sets the status to `declined`, records
    `client_response`, and queues an email to the estimate's creator ("Estimate #<id> declined by
    <client>"), in one transaction. A `reason` may come with it. Repeating the decision already recorded
    changes nothing (303 again). Form body (`application/x-www-form-urlencoded`), as the page's form
    sends it, with `version`: the version of the offer the page showed. A decision on an estimate that
    changed since (or without a version) is not recorded: the 409 page "This estimate was revised;
    please review it again." (API.md §18). The decision is kept with the offer it was made on.

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
    """Decline the estimate (the client's form)

     The page's Decline button: for an estimate shown `new`, sets the status to `declined`, records
    `client_response`, and queues an email to the estimate's creator ("Estimate #<id> declined by
    <client>"), in one transaction. A `reason` may come with it. Repeating the decision already recorded
    changes nothing (303 again). Form body (`application/x-www-form-urlencoded`), as the page's form
    sends it, with `version`: the version of the offer the page showed. A decision on an estimate that
    changed since (or without a version) is not recorded: the 409 page "This estimate was revised;
    please review it again." (API.md §18). The decision is kept with the offer it was made on.

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
    """Decline the estimate (the client's form)

     The page's Decline button: for an estimate shown `new`, sets the status to `declined`, records
    `client_response`, and queues an email to the estimate's creator ("Estimate #<id> declined by
    <client>"), in one transaction. A `reason` may come with it. Repeating the decision already recorded
    changes nothing (303 again). Form body (`application/x-www-form-urlencoded`), as the page's form
    sends it, with `version`: the version of the offer the page showed. A decision on an estimate that
    changed since (or without a version) is not recorded: the 409 page "This estimate was revised;
    please review it again." (API.md §18). The decision is kept with the offer it was made on.

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
    """Decline the estimate (the client's form)

     The page's Decline button: for an estimate shown `new`, sets the status to `declined`, records
    `client_response`, and queues an email to the estimate's creator ("Estimate #<id> declined by
    <client>"), in one transaction. A `reason` may come with it. Repeating the decision already recorded
    changes nothing (303 again). Form body (`application/x-www-form-urlencoded`), as the page's form
    sends it, with `version`: the version of the offer the page showed. A decision on an estimate that
    changed since (or without a version) is not recorded: the 409 page "This estimate was revised;
    please review it again." (API.md §18). The decision is kept with the offer it was made on.

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
