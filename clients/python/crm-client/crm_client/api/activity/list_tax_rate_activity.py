import datetime
from http import HTTPStatus
from typing import Any, Literal, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_tax_rate_activity_order_type_0 import ListTaxRateActivityOrderType0
from ...models.list_tax_rate_activity_response_200 import ListTaxRateActivityResponse200
from ...models.list_tax_rate_activity_sort_type_0 import ListTaxRateActivitySortType0
from ...models.list_tax_rate_activity_type_type_0 import ListTaxRateActivityTypeType0
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListTaxRateActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListTaxRateActivitySortType0 | Literal[""] | Unset = UNSET,
    type_: ListTaxRateActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

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
    elif isinstance(order, ListTaxRateActivityOrderType0):
        json_order = order.value
    else:
        json_order = order
    params["order"] = json_order

    json_sort: Literal[""] | str | Unset
    if isinstance(sort, Unset):
        json_sort = UNSET
    elif isinstance(sort, ListTaxRateActivitySortType0):
        json_sort = sort.value
    else:
        json_sort = sort
    params["sort"] = json_sort

    json_type_: Literal[""] | str | Unset
    if isinstance(type_, Unset):
        json_type_ = UNSET
    elif isinstance(type_, ListTaxRateActivityTypeType0):
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
        "url": "/api/tax-rates/{id}/activity".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | ListTaxRateActivityResponse200 | None:
    if response.status_code == 200:
        response_200 = ListTaxRateActivityResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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
) -> Response[Any | Error | ListTaxRateActivityResponse200]:
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
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListTaxRateActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListTaxRateActivitySortType0 | Literal[""] | Unset = UNSET,
    type_: ListTaxRateActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | ListTaxRateActivityResponse200]:
    """List a tax rate's activity

     The entries about this tax rate (see `listActivity`), newest first; the tax rate must exist (a
    deleted one's history is `GET /api/activity?resource_type=…&resource_id=…`). Needs the
    `activity:read` scope.

    Args:
        id (int):
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListTaxRateActivityOrderType0 | Literal[''] | Unset):
        sort (ListTaxRateActivitySortType0 | Literal[''] | Unset):
        type_ (ListTaxRateActivityTypeType0 | Literal[''] | Unset):
        actor (int | Literal[''] | Unset):
        from_ (datetime.date | Literal[''] | Unset):
        to (datetime.date | Literal[''] | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListTaxRateActivityResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        type_=type_,
        actor=actor,
        from_=from_,
        to=to,
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
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListTaxRateActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListTaxRateActivitySortType0 | Literal[""] | Unset = UNSET,
    type_: ListTaxRateActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | ListTaxRateActivityResponse200 | None:
    """List a tax rate's activity

     The entries about this tax rate (see `listActivity`), newest first; the tax rate must exist (a
    deleted one's history is `GET /api/activity?resource_type=…&resource_id=…`). Needs the
    `activity:read` scope.

    Args:
        id (int):
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListTaxRateActivityOrderType0 | Literal[''] | Unset):
        sort (ListTaxRateActivitySortType0 | Literal[''] | Unset):
        type_ (ListTaxRateActivityTypeType0 | Literal[''] | Unset):
        actor (int | Literal[''] | Unset):
        from_ (datetime.date | Literal[''] | Unset):
        to (datetime.date | Literal[''] | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListTaxRateActivityResponse200
    """

    return sync_detailed(
        id=id,
        client=client,
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        type_=type_,
        actor=actor,
        from_=from_,
        to=to,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListTaxRateActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListTaxRateActivitySortType0 | Literal[""] | Unset = UNSET,
    type_: ListTaxRateActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | ListTaxRateActivityResponse200]:
    """List a tax rate's activity

     The entries about this tax rate (see `listActivity`), newest first; the tax rate must exist (a
    deleted one's history is `GET /api/activity?resource_type=…&resource_id=…`). Needs the
    `activity:read` scope.

    Args:
        id (int):
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListTaxRateActivityOrderType0 | Literal[''] | Unset):
        sort (ListTaxRateActivitySortType0 | Literal[''] | Unset):
        type_ (ListTaxRateActivityTypeType0 | Literal[''] | Unset):
        actor (int | Literal[''] | Unset):
        from_ (datetime.date | Literal[''] | Unset):
        to (datetime.date | Literal[''] | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListTaxRateActivityResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        type_=type_,
        actor=actor,
        from_=from_,
        to=to,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListTaxRateActivityOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListTaxRateActivitySortType0 | Literal[""] | Unset = UNSET,
    type_: ListTaxRateActivityTypeType0 | Literal[""] | Unset = UNSET,
    actor: int | Literal[""] | Unset = UNSET,
    from_: datetime.date | Literal[""] | Unset = UNSET,
    to: datetime.date | Literal[""] | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | ListTaxRateActivityResponse200 | None:
    """List a tax rate's activity

     The entries about this tax rate (see `listActivity`), newest first; the tax rate must exist (a
    deleted one's history is `GET /api/activity?resource_type=…&resource_id=…`). Needs the
    `activity:read` scope.

    Args:
        id (int):
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListTaxRateActivityOrderType0 | Literal[''] | Unset):
        sort (ListTaxRateActivitySortType0 | Literal[''] | Unset):
        type_ (ListTaxRateActivityTypeType0 | Literal[''] | Unset):
        actor (int | Literal[''] | Unset):
        from_ (datetime.date | Literal[''] | Unset):
        to (datetime.date | Literal[''] | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListTaxRateActivityResponse200
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            page=page,
            cursor=cursor,
            limit=limit,
            order=order,
            sort=sort,
            type_=type_,
            actor=actor,
            from_=from_,
            to=to,
            if_none_match=if_none_match,
        )
    ).parsed
