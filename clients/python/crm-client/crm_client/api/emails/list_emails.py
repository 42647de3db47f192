from http import HTTPStatus
from typing import Any, Literal, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_emails_order_type_0 import ListEmailsOrderType0
from ...models.list_emails_resource_type_type_0 import ListEmailsResourceTypeType0
from ...models.list_emails_response_200 import ListEmailsResponse200
from ...models.list_emails_sort_type_0 import ListEmailsSortType0
from ...models.list_emails_status_type_0 import ListEmailsStatusType0
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListEmailsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListEmailsSortType0 | Literal[""] | Unset = UNSET,
    status: ListEmailsStatusType0 | Literal[""] | Unset = UNSET,
    resource_type: ListEmailsResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
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
    elif isinstance(order, ListEmailsOrderType0):
        json_order = order.value
    else:
        json_order = order
    params["order"] = json_order

    json_sort: Literal[""] | str | Unset
    if isinstance(sort, Unset):
        json_sort = UNSET
    elif isinstance(sort, ListEmailsSortType0):
        json_sort = sort.value
    else:
        json_sort = sort
    params["sort"] = json_sort

    json_status: Literal[""] | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, ListEmailsStatusType0):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_resource_type: Literal[""] | str | Unset
    if isinstance(resource_type, Unset):
        json_resource_type = UNSET
    elif isinstance(resource_type, ListEmailsResourceTypeType0):
        json_resource_type = resource_type.value
    else:
        json_resource_type = resource_type
    params["resource_type"] = json_resource_type

    json_resource_id: int | Literal[""] | Unset
    if isinstance(resource_id, Unset):
        json_resource_id = UNSET
    else:
        json_resource_id = resource_id
    params["resource_id"] = json_resource_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/emails",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | ListEmailsResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = ListEmailsResponse200.from_dict(response.json())

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
) -> Response[Any | Error | ListEmailsResponse200 | ValidationError]:
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
    order: ListEmailsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListEmailsSortType0 | Literal[""] | Unset = UNSET,
    status: ListEmailsStatusType0 | Literal[""] | Unset = UNSET,
    resource_type: ListEmailsResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListEmailsResponse200 | ValidationError]:
    """List the outbox

     Emails queued by publishing or emailing an estimate or invoice, with their delivery state. Read-
    only: a delivery worker sends them.

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListEmailsOrderType0 | Literal[''] | Unset):
        sort (ListEmailsSortType0 | Literal[''] | Unset):
        status (ListEmailsStatusType0 | Literal[''] | Unset):
        resource_type (ListEmailsResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListEmailsResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        status=status,
        resource_type=resource_type,
        resource_id=resource_id,
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
    order: ListEmailsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListEmailsSortType0 | Literal[""] | Unset = UNSET,
    status: ListEmailsStatusType0 | Literal[""] | Unset = UNSET,
    resource_type: ListEmailsResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
) -> Any | Error | ListEmailsResponse200 | ValidationError | None:
    """List the outbox

     Emails queued by publishing or emailing an estimate or invoice, with their delivery state. Read-
    only: a delivery worker sends them.

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListEmailsOrderType0 | Literal[''] | Unset):
        sort (ListEmailsSortType0 | Literal[''] | Unset):
        status (ListEmailsStatusType0 | Literal[''] | Unset):
        resource_type (ListEmailsResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListEmailsResponse200 | ValidationError
    """

    return sync_detailed(
        client=client,
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        status=status,
        resource_type=resource_type,
        resource_id=resource_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListEmailsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListEmailsSortType0 | Literal[""] | Unset = UNSET,
    status: ListEmailsStatusType0 | Literal[""] | Unset = UNSET,
    resource_type: ListEmailsResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListEmailsResponse200 | ValidationError]:
    """List the outbox

     Emails queued by publishing or emailing an estimate or invoice, with their delivery state. Read-
    only: a delivery worker sends them.

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListEmailsOrderType0 | Literal[''] | Unset):
        sort (ListEmailsSortType0 | Literal[''] | Unset):
        status (ListEmailsStatusType0 | Literal[''] | Unset):
        resource_type (ListEmailsResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListEmailsResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        status=status,
        resource_type=resource_type,
        resource_id=resource_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListEmailsOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListEmailsSortType0 | Literal[""] | Unset = UNSET,
    status: ListEmailsStatusType0 | Literal[""] | Unset = UNSET,
    resource_type: ListEmailsResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
) -> Any | Error | ListEmailsResponse200 | ValidationError | None:
    """List the outbox

     Emails queued by publishing or emailing an estimate or invoice, with their delivery state. Read-
    only: a delivery worker sends them.

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListEmailsOrderType0 | Literal[''] | Unset):
        sort (ListEmailsSortType0 | Literal[''] | Unset):
        status (ListEmailsStatusType0 | Literal[''] | Unset):
        resource_type (ListEmailsResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListEmailsResponse200 | ValidationError
    """

    return (
        await asyncio_detailed(
            client=client,
            page=page,
            cursor=cursor,
            limit=limit,
            order=order,
            sort=sort,
            status=status,
            resource_type=resource_type,
            resource_id=resource_id,
        )
    ).parsed
