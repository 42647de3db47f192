from http import HTTPStatus
from typing import Any, Literal, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_webhooks_order_type_0 import ListWebhooksOrderType0
from ...models.list_webhooks_response_200 import ListWebhooksResponse200
from ...models.list_webhooks_sort_type_0 import ListWebhooksSortType0
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListWebhooksOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListWebhooksSortType0 | Literal[""] | Unset = UNSET,
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
    elif isinstance(order, ListWebhooksOrderType0):
        json_order = order.value
    else:
        json_order = order
    params["order"] = json_order

    json_sort: Literal[""] | str | Unset
    if isinstance(sort, Unset):
        json_sort = UNSET
    elif isinstance(sort, ListWebhooksSortType0):
        json_sort = sort.value
    else:
        json_sort = sort
    params["sort"] = json_sort

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | ListWebhooksResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = ListWebhooksResponse200.from_dict(response.json())

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
) -> Response[Any | Error | ListWebhooksResponse200 | ValidationError]:
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
    order: ListWebhooksOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListWebhooksSortType0 | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListWebhooksResponse200 | ValidationError]:
    """List webhook endpoints

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListWebhooksOrderType0 | Literal[''] | Unset):
        sort (ListWebhooksSortType0 | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListWebhooksResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
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
    order: ListWebhooksOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListWebhooksSortType0 | Literal[""] | Unset = UNSET,
) -> Any | Error | ListWebhooksResponse200 | ValidationError | None:
    """List webhook endpoints

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListWebhooksOrderType0 | Literal[''] | Unset):
        sort (ListWebhooksSortType0 | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListWebhooksResponse200 | ValidationError
    """

    return sync_detailed(
        client=client,
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListWebhooksOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListWebhooksSortType0 | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListWebhooksResponse200 | ValidationError]:
    """List webhook endpoints

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListWebhooksOrderType0 | Literal[''] | Unset):
        sort (ListWebhooksSortType0 | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListWebhooksResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListWebhooksOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListWebhooksSortType0 | Literal[""] | Unset = UNSET,
) -> Any | Error | ListWebhooksResponse200 | ValidationError | None:
    """List webhook endpoints

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListWebhooksOrderType0 | Literal[''] | Unset):
        sort (ListWebhooksSortType0 | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListWebhooksResponse200 | ValidationError
    """

    return (
        await asyncio_detailed(
            client=client,
            page=page,
            cursor=cursor,
            limit=limit,
            order=order,
            sort=sort,
        )
    ).parsed
