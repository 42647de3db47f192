from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.update_me_data_body import UpdateMeDataBody
from ...models.update_me_files_body import UpdateMeFilesBody
from ...models.update_me_json_body import UpdateMeJsonBody
from ...models.update_me_response_200 import UpdateMeResponse200
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: UpdateMeJsonBody | UpdateMeDataBody | UpdateMeFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/users/me",
    }

    if isinstance(body, UpdateMeJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, UpdateMeDataBody):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, UpdateMeFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | UpdateMeResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = UpdateMeResponse200.from_dict(response.json())

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

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())

        return response_408

    if response.status_code == 412:
        response_412 = Error.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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

    if response.status_code == 501:
        response_501 = Error.from_dict(response.json())

        return response_501

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Error | UpdateMeResponse200 | ValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateMeJsonBody | UpdateMeDataBody | UpdateMeFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | UpdateMeResponse200 | ValidationError]:
    """Update the key's user

     Changes only the fields sent (none can be cleared). An email address another user has: "The email
    has already been taken.".

    Args:
        if_match (str | Unset):
        body (UpdateMeJsonBody):
        body (UpdateMeDataBody):
        body (UpdateMeFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | UpdateMeResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        body=body,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: UpdateMeJsonBody | UpdateMeDataBody | UpdateMeFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | UpdateMeResponse200 | ValidationError | None:
    """Update the key's user

     Changes only the fields sent (none can be cleared). An email address another user has: "The email
    has already been taken.".

    Args:
        if_match (str | Unset):
        body (UpdateMeJsonBody):
        body (UpdateMeDataBody):
        body (UpdateMeFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | UpdateMeResponse200 | ValidationError
    """

    return sync_detailed(
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateMeJsonBody | UpdateMeDataBody | UpdateMeFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | UpdateMeResponse200 | ValidationError]:
    """Update the key's user

     Changes only the fields sent (none can be cleared). An email address another user has: "The email
    has already been taken.".

    Args:
        if_match (str | Unset):
        body (UpdateMeJsonBody):
        body (UpdateMeDataBody):
        body (UpdateMeFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | UpdateMeResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: UpdateMeJsonBody | UpdateMeDataBody | UpdateMeFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | UpdateMeResponse200 | ValidationError | None:
    """Update the key's user

     Changes only the fields sent (none can be cleared). An email address another user has: "The email
    has already been taken.".

    Args:
        if_match (str | Unset):
        body (UpdateMeJsonBody):
        body (UpdateMeDataBody):
        body (UpdateMeFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | UpdateMeResponse200 | ValidationError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
