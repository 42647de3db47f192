import datetime
from http import HTTPStatus
from typing import Any, Literal, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_activity_order_type_0 import ListActivityOrderType0
from ...models.list_activity_resource_type_type_0 import ListActivityResourceTypeType0
from ...models.list_activity_response_200 import ListActivityResponse200
from ...models.list_activity_sort_type_0 import ListActivitySortType0
from ...models.list_activity_type_type_0 import ListActivityTypeType0
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListActivitySortType0 | Literal[""] | Unset = UNSET,
    resource_type: ListActivityResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    type_: ListActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
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
    elif isinstance(order, ListActivityOrderType0):
        json_order = order.value
    else:
        json_order = order
    params["order"] = json_order

    json_sort: Literal[""] | str | Unset
    if isinstance(sort, Unset):
        json_sort = UNSET
    elif isinstance(sort, ListActivitySortType0):
        json_sort = sort.value
    else:
        json_sort = sort
    params["sort"] = json_sort

    json_resource_type: Literal[""] | str | Unset
    if isinstance(resource_type, Unset):
        json_resource_type = UNSET
    elif isinstance(resource_type, ListActivityResourceTypeType0):
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

    json_type_: Literal[""] | str | Unset
    if isinstance(type_, Unset):
        json_type_ = UNSET
    elif isinstance(type_, ListActivityTypeType0):
        json_type_ = type_.value
    else:
        json_type_ = type_
    params["type"] = json_type_

    json_actor: int | Literal[""] | Unset
    if isinstance(actor, Unset):
        json_actor = UNSET
    else:
        json_actor = actor
    params["actor"] = json_actor

    json_from_: Literal[""] | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.date):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: Literal[""] | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.date):
        json_to = to.isoformat()
    else:
        json_to = to
    params["to"] = json_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/activity",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | ListActivityResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = ListActivityResponse200.from_dict(response.json())

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
) -> Response[Any | Error | ListActivityResponse200 | ValidationError]:
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
    order: ListActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListActivitySortType0 | Literal[""] | Unset = UNSET,
    resource_type: ListActivityResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    type_: ListActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListActivityResponse200 | ValidationError]:
    """List activity

     One entry per change (API.md §21), written in the change's own transaction: who made it (an API key
    and its user, a client through a record's link, or the service), what record it is about, and the
    fields that changed with their values before and after (`{field: [before, after]}`, nested objects
    flattened with dots, arrays compared whole; a creation lists every field as `[null, value]`, a
    deletion as `[value, null]`; an action that changes no field of the record, such as a send-email,
    lists none). A change that touches several records (a payment and its invoice, a reorder of
    milestones) is one entry, about the record it was made on. A private note's entries are shown to its
    creator alone. Needs the `activity:read` scope. Newest first; pages by number or by cursor. The
    entries of issued documents (numbers assigned, credit notes, payments, an invoice's status changes)
    are chained by SHA-256 (`crm audit verify`).

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListActivityOrderType0 | Literal[''] | Unset):
        sort (ListActivitySortType0 | Literal[''] | Unset):
        resource_type (ListActivityResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):
        type_ (ListActivityTypeType0 | Literal[''] | Unset):
        actor (int | Literal[''] | Unset):
        from_ (datetime.date | Literal[''] | Unset):
        to (datetime.date | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListActivityResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        resource_type=resource_type,
        resource_id=resource_id,
        type_=type_,
        actor=actor,
        from_=from_,
        to=to,
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
    order: ListActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListActivitySortType0 | Literal[""] | Unset = UNSET,
    resource_type: ListActivityResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    type_: ListActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
) -> Any | Error | ListActivityResponse200 | ValidationError | None:
    """List activity

     One entry per change (API.md §21), written in the change's own transaction: who made it (an API key
    and its user, a client through a record's link, or the service), what record it is about, and the
    fields that changed with their values before and after (`{field: [before, after]}`, nested objects
    flattened with dots, arrays compared whole; a creation lists every field as `[null, value]`, a
    deletion as `[value, null]`; an action that changes no field of the record, such as a send-email,
    lists none). A change that touches several records (a payment and its invoice, a reorder of
    milestones) is one entry, about the record it was made on. A private note's entries are shown to its
    creator alone. Needs the `activity:read` scope. Newest first; pages by number or by cursor. The
    entries of issued documents (numbers assigned, credit notes, payments, an invoice's status changes)
    are chained by SHA-256 (`crm audit verify`).

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListActivityOrderType0 | Literal[''] | Unset):
        sort (ListActivitySortType0 | Literal[''] | Unset):
        resource_type (ListActivityResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):
        type_ (ListActivityTypeType0 | Literal[''] | Unset):
        actor (int | Literal[''] | Unset):
        from_ (datetime.date | Literal[''] | Unset):
        to (datetime.date | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListActivityResponse200 | ValidationError
    """

    return sync_detailed(
        client=client,
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        resource_type=resource_type,
        resource_id=resource_id,
        type_=type_,
        actor=actor,
        from_=from_,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListActivitySortType0 | Literal[""] | Unset = UNSET,
    resource_type: ListActivityResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    type_: ListActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListActivityResponse200 | ValidationError]:
    """List activity

     One entry per change (API.md §21), written in the change's own transaction: who made it (an API key
    and its user, a client through a record's link, or the service), what record it is about, and the
    fields that changed with their values before and after (`{field: [before, after]}`, nested objects
    flattened with dots, arrays compared whole; a creation lists every field as `[null, value]`, a
    deletion as `[value, null]`; an action that changes no field of the record, such as a send-email,
    lists none). A change that touches several records (a payment and its invoice, a reorder of
    milestones) is one entry, about the record it was made on. A private note's entries are shown to its
    creator alone. Needs the `activity:read` scope. Newest first; pages by number or by cursor. The
    entries of issued documents (numbers assigned, credit notes, payments, an invoice's status changes)
    are chained by SHA-256 (`crm audit verify`).

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListActivityOrderType0 | Literal[''] | Unset):
        sort (ListActivitySortType0 | Literal[''] | Unset):
        resource_type (ListActivityResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):
        type_ (ListActivityTypeType0 | Literal[''] | Unset):
        actor (int | Literal[''] | Unset):
        from_ (datetime.date | Literal[''] | Unset):
        to (datetime.date | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListActivityResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        resource_type=resource_type,
        resource_id=resource_id,
        type_=type_,
        actor=actor,
        from_=from_,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListActivitySortType0 | Literal[""] | Unset = UNSET,
    resource_type: ListActivityResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    type_: ListActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
) -> Any | Error | ListActivityResponse200 | ValidationError | None:
    """List activity

     One entry per change (API.md §21), written in the change's own transaction: who made it (an API key
    and its user, a client through a record's link, or the service), what record it is about, and the
    fields that changed with their values before and after (`{field: [before, after]}`, nested objects
    flattened with dots, arrays compared whole; a creation lists every field as `[null, value]`, a
    deletion as `[value, null]`; an action that changes no field of the record, such as a send-email,
    lists none). A change that touches several records (a payment and its invoice, a reorder of
    milestones) is one entry, about the record it was made on. A private note's entries are shown to its
    creator alone. Needs the `activity:read` scope. Newest first; pages by number or by cursor. The
    entries of issued documents (numbers assigned, credit notes, payments, an invoice's status changes)
    are chained by SHA-256 (`crm audit verify`).

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListActivityOrderType0 | Literal[''] | Unset):
        sort (ListActivitySortType0 | Literal[''] | Unset):
        resource_type (ListActivityResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):
        type_ (ListActivityTypeType0 | Literal[''] | Unset):
        actor (int | Literal[''] | Unset):
        from_ (datetime.date | Literal[''] | Unset):
        to (datetime.date | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListActivityResponse200 | ValidationError
    """

    return (
        await asyncio_detailed(
            client=client,
            page=page,
            cursor=cursor,
            limit=limit,
            order=order,
            sort=sort,
            resource_type=resource_type,
            resource_id=resource_id,
            type_=type_,
            actor=actor,
            from_=from_,
            to=to,
        )
    ).parsed
