from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.update_company_data_body import UpdateCompanyDataBody
from ...models.update_company_files_body import UpdateCompanyFilesBody
from ...models.update_company_json_body import UpdateCompanyJsonBody
from ...models.update_company_response_200 import UpdateCompanyResponse200
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: UpdateCompanyJsonBody | UpdateCompanyDataBody | UpdateCompanyFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/company",
    }

    if isinstance(body, UpdateCompanyJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, UpdateCompanyDataBody):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, UpdateCompanyFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | UpdateCompanyResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = UpdateCompanyResponse200.from_dict(response.json())

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
) -> Response[Any | Error | UpdateCompanyResponse200 | ValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateCompanyJsonBody | UpdateCompanyDataBody | UpdateCompanyFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | UpdateCompanyResponse200 | ValidationError]:
    """Update the company

     Changes only the fields sent; a field sent empty or `null` is cleared (a group's members one by one,
    or the whole group sent empty). Every invalid field is reported at once and nothing is written.

    Args:
        if_match (str | Unset):
        body (UpdateCompanyJsonBody):
        body (UpdateCompanyDataBody):
        body (UpdateCompanyFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | UpdateCompanyResponse200 | ValidationError]
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
    body: UpdateCompanyJsonBody | UpdateCompanyDataBody | UpdateCompanyFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | UpdateCompanyResponse200 | ValidationError | None:
    """Update the company

     Changes only the fields sent; a field sent empty or `null` is cleared (a group's members one by one,
    or the whole group sent empty). Every invalid field is reported at once and nothing is written.

    Args:
        if_match (str | Unset):
        body (UpdateCompanyJsonBody):
        body (UpdateCompanyDataBody):
        body (UpdateCompanyFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | UpdateCompanyResponse200 | ValidationError
    """

    return sync_detailed(
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateCompanyJsonBody | UpdateCompanyDataBody | UpdateCompanyFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | UpdateCompanyResponse200 | ValidationError]:
    """Update the company

     Changes only the fields sent; a field sent empty or `null` is cleared (a group's members one by one,
    or the whole group sent empty). Every invalid field is reported at once and nothing is written.

    Args:
        if_match (str | Unset):
        body (UpdateCompanyJsonBody):
        body (UpdateCompanyDataBody):
        body (UpdateCompanyFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | UpdateCompanyResponse200 | ValidationError]
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
    body: UpdateCompanyJsonBody | UpdateCompanyDataBody | UpdateCompanyFilesBody | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | UpdateCompanyResponse200 | ValidationError | None:
    """Update the company

     Changes only the fields sent; a field sent empty or `null` is cleared (a group's members one by one,
    or the whole group sent empty). Every invalid field is reported at once and nothing is written.

    Args:
        if_match (str | Unset):
        body (UpdateCompanyJsonBody):
        body (UpdateCompanyDataBody):
        body (UpdateCompanyFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | UpdateCompanyResponse200 | ValidationError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
