from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.set_estimate_status_data_body import SetEstimateStatusDataBody
from ...models.set_estimate_status_files_body import SetEstimateStatusFilesBody
from ...models.set_estimate_status_json_body import SetEstimateStatusJsonBody
from ...models.set_estimate_status_response_200 import SetEstimateStatusResponse200
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    body: SetEstimateStatusJsonBody | SetEstimateStatusDataBody | SetEstimateStatusFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/estimates/{id}/status".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, SetEstimateStatusJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, SetEstimateStatusDataBody):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, SetEstimateStatusFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | SetEstimateStatusResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = SetEstimateStatusResponse200.from_dict(response.json())

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

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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
) -> Response[Any | Error | SetEstimateStatusResponse200 | ValidationError]:
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
    body: SetEstimateStatusJsonBody | SetEstimateStatusDataBody | SetEstimateStatusFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | SetEstimateStatusResponse200 | ValidationError]:
    """Change the status

    Args:
        id (int):
        if_match (str | Unset):
        body (SetEstimateStatusJsonBody):
        body (SetEstimateStatusDataBody):
        body (SetEstimateStatusFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | SetEstimateStatusResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    body: SetEstimateStatusJsonBody | SetEstimateStatusDataBody | SetEstimateStatusFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | SetEstimateStatusResponse200 | ValidationError | None:
    """Change the status

    Args:
        id (int):
        if_match (str | Unset):
        body (SetEstimateStatusJsonBody):
        body (SetEstimateStatusDataBody):
        body (SetEstimateStatusFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | SetEstimateStatusResponse200 | ValidationError
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: SetEstimateStatusJsonBody | SetEstimateStatusDataBody | SetEstimateStatusFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | SetEstimateStatusResponse200 | ValidationError]:
    """Change the status

    Args:
        id (int):
        if_match (str | Unset):
        body (SetEstimateStatusJsonBody):
        body (SetEstimateStatusDataBody):
        body (SetEstimateStatusFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | SetEstimateStatusResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    body: SetEstimateStatusJsonBody | SetEstimateStatusDataBody | SetEstimateStatusFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | SetEstimateStatusResponse200 | ValidationError | None:
    """Change the status

    Args:
        id (int):
        if_match (str | Unset):
        body (SetEstimateStatusJsonBody):
        body (SetEstimateStatusDataBody):
        body (SetEstimateStatusFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | SetEstimateStatusResponse200 | ValidationError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
