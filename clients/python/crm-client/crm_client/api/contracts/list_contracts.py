from http import HTTPStatus
from typing import Any, Literal, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_contracts_order_type_0 import ListContractsOrderType0
from ...models.list_contracts_response_200 import ListContractsResponse200
from ...models.list_contracts_sort_type_0 import ListContractsSortType0
from ...models.list_contracts_status_type_0 import ListContractsStatusType0
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListContractsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListContractsSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    status: ListContractsStatusType0 | Literal[""] | Unset = UNSET,
    client_id: int | Literal[""] | Unset = UNSET,
    category_id: int | Literal[""] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_page: int | Literal[""] | Unset
    if isinstance(page, Unset):
        json_page = UNSET
    else:
        json_page = page
    params["page"] = json_page

    params["cursor"] = cursor

    json_limit: int | Literal[""] | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_order: Literal[""] | str | Unset
    if isinstance(order, Unset):
        json_order = UNSET
    elif isinstance(order, ListContractsOrderType0):
        json_order = order.value
    else:
        json_order = order
    params["order"] = json_order

    json_sort: Literal[""] | str | Unset
    if isinstance(sort, Unset):
        json_sort = UNSET
    elif isinstance(sort, ListContractsSortType0):
        json_sort = sort.value
    else:
        json_sort = sort
    params["sort"] = json_sort

    params["search"] = search

    json_status: Literal[""] | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, ListContractsStatusType0):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_client_id: int | Literal[""] | Unset
    if isinstance(client_id, Unset):
        json_client_id = UNSET
    else:
        json_client_id = client_id
    params["client_id"] = json_client_id

    json_category_id: int | Literal[""] | Unset
    if isinstance(category_id, Unset):
        json_category_id = UNSET
    else:
        json_category_id = category_id
    params["category_id"] = json_category_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/contracts",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | ListContractsResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = ListContractsResponse200.from_dict(response.json())

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
) -> Response[Any | Error | ListContractsResponse200 | ValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListContractsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListContractsSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    status: ListContractsStatusType0 | Literal[""] | Unset = UNSET,
    client_id: int | Literal[""] | Unset = UNSET,
    category_id: int | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListContractsResponse200 | ValidationError]:
    """List / search contracts

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListContractsOrderType0 | Literal[''] | Unset):
        sort (ListContractsSortType0 | Literal[''] | Unset):
        search (str | Unset): Text of at most 250 characters once trimmed and normalised to NFC,
            HTML allowed, no control characters other than tab and line breaks; a one-line field (an
            icon, an adjustment's description) also refuses those and invisible or bidi control
            characters (joiners, variation selectors and tags only inside emoji and script sequences).
        status (ListContractsStatusType0 | Literal[''] | Unset):
        client_id (int | Literal[''] | Unset):
        category_id (int | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListContractsResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        search=search,
        status=status,
        client_id=client_id,
        category_id=category_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListContractsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListContractsSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    status: ListContractsStatusType0 | Literal[""] | Unset = UNSET,
    client_id: int | Literal[""] | Unset = UNSET,
    category_id: int | Literal[""] | Unset = UNSET,
) -> Any | Error | ListContractsResponse200 | ValidationError | None:
    """List / search contracts

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListContractsOrderType0 | Literal[''] | Unset):
        sort (ListContractsSortType0 | Literal[''] | Unset):
        search (str | Unset): Text of at most 250 characters once trimmed and normalised to NFC,
            HTML allowed, no control characters other than tab and line breaks; a one-line field (an
            icon, an adjustment's description) also refuses those and invisible or bidi control
            characters (joiners, variation selectors and tags only inside emoji and script sequences).
        status (ListContractsStatusType0 | Literal[''] | Unset):
        client_id (int | Literal[''] | Unset):
        category_id (int | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListContractsResponse200 | ValidationError
    """

    return sync_detailed(
        client=client,
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        search=search,
        status=status,
        client_id=client_id,
        category_id=category_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListContractsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListContractsSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    status: ListContractsStatusType0 | Literal[""] | Unset = UNSET,
    client_id: int | Literal[""] | Unset = UNSET,
    category_id: int | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListContractsResponse200 | ValidationError]:
    """List / search contracts

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListContractsOrderType0 | Literal[''] | Unset):
        sort (ListContractsSortType0 | Literal[''] | Unset):
        search (str | Unset): Text of at most 250 characters once trimmed and normalised to NFC,
            HTML allowed, no control characters other than tab and line breaks; a one-line field (an
            icon, an adjustment's description) also refuses those and invisible or bidi control
            characters (joiners, variation selectors and tags only inside emoji and script sequences).
        status (ListContractsStatusType0 | Literal[''] | Unset):
        client_id (int | Literal[''] | Unset):
        category_id (int | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListContractsResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        search=search,
        status=status,
        client_id=client_id,
        category_id=category_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListContractsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListContractsSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    status: ListContractsStatusType0 | Literal[""] | Unset = UNSET,
    client_id: int | Literal[""] | Unset = UNSET,
    category_id: int | Literal[""] | Unset = UNSET,
) -> Any | Error | ListContractsResponse200 | ValidationError | None:
    """List / search contracts

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListContractsOrderType0 | Literal[''] | Unset):
        sort (ListContractsSortType0 | Literal[''] | Unset):
        search (str | Unset): Text of at most 250 characters once trimmed and normalised to NFC,
            HTML allowed, no control characters other than tab and line breaks; a one-line field (an
            icon, an adjustment's description) also refuses those and invisible or bidi control
            characters (joiners, variation selectors and tags only inside emoji and script sequences).
        status (ListContractsStatusType0 | Literal[''] | Unset):
        client_id (int | Literal[''] | Unset):
        category_id (int | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListContractsResponse200 | ValidationError
    """

    return (
        await asyncio_detailed(
            client=client,
            page=page,
            cursor=cursor,
            limit=limit,
            order=order,
            sort=sort,
            search=search,
            status=status,
            client_id=client_id,
            category_id=category_id,
        )
    ).parsed
