from http import HTTPStatus
from typing import Any, Literal, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_notes_order_type_0 import ListNotesOrderType0
from ...models.list_notes_resource_type_type_0 import ListNotesResourceTypeType0
from ...models.list_notes_response_200 import ListNotesResponse200
from ...models.list_notes_sort_type_0 import ListNotesSortType0
from ...models.list_notes_visibility_type_0 import ListNotesVisibilityType0
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListNotesOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListNotesSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    resource_type: ListNotesResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    visibility: ListNotesVisibilityType0 | Literal[""] | Unset = UNSET,
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
    elif isinstance(order, ListNotesOrderType0):
        json_order = order.value
    else:
        json_order = order
    params["order"] = json_order

    json_sort: Literal[""] | str | Unset
    if isinstance(sort, Unset):
        json_sort = UNSET
    elif isinstance(sort, ListNotesSortType0):
        json_sort = sort.value
    else:
        json_sort = sort
    params["sort"] = json_sort

    params["search"] = search

    json_resource_type: Literal[""] | str | Unset
    if isinstance(resource_type, Unset):
        json_resource_type = UNSET
    elif isinstance(resource_type, ListNotesResourceTypeType0):
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

    json_visibility: Literal[""] | str | Unset
    if isinstance(visibility, Unset):
        json_visibility = UNSET
    elif isinstance(visibility, ListNotesVisibilityType0):
        json_visibility = visibility.value
    else:
        json_visibility = visibility
    params["visibility"] = json_visibility

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/notes",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | ListNotesResponse200 | ValidationError | None:
    if response.status_code == 200:
        response_200 = ListNotesResponse200.from_dict(response.json())

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
) -> Response[Any | Error | ListNotesResponse200 | ValidationError]:
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
    order: ListNotesOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListNotesSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    resource_type: ListNotesResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    visibility: ListNotesVisibilityType0 | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListNotesResponse200 | ValidationError]:
    """List / search notes

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListNotesOrderType0 | Literal[''] | Unset):
        sort (ListNotesSortType0 | Literal[''] | Unset):
        search (str | Unset): Text of at most 250 characters once trimmed and normalised to NFC,
            HTML allowed, no control characters other than tab and line breaks; a one-line field (an
            icon, an adjustment's description) also refuses those and invisible or bidi control
            characters (joiners, variation selectors and tags only inside emoji and script sequences).
        resource_type (ListNotesResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):
        visibility (ListNotesVisibilityType0 | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListNotesResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        search=search,
        resource_type=resource_type,
        resource_id=resource_id,
        visibility=visibility,
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
    order: ListNotesOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListNotesSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    resource_type: ListNotesResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    visibility: ListNotesVisibilityType0 | Literal[""] | Unset = UNSET,
) -> Any | Error | ListNotesResponse200 | ValidationError | None:
    """List / search notes

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListNotesOrderType0 | Literal[''] | Unset):
        sort (ListNotesSortType0 | Literal[''] | Unset):
        search (str | Unset): Text of at most 250 characters once trimmed and normalised to NFC,
            HTML allowed, no control characters other than tab and line breaks; a one-line field (an
            icon, an adjustment's description) also refuses those and invisible or bidi control
            characters (joiners, variation selectors and tags only inside emoji and script sequences).
        resource_type (ListNotesResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):
        visibility (ListNotesVisibilityType0 | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListNotesResponse200 | ValidationError
    """

    return sync_detailed(
        client=client,
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        search=search,
        resource_type=resource_type,
        resource_id=resource_id,
        visibility=visibility,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListNotesOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListNotesSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    resource_type: ListNotesResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    visibility: ListNotesVisibilityType0 | Literal[""] | Unset = UNSET,
) -> Response[Any | Error | ListNotesResponse200 | ValidationError]:
    """List / search notes

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListNotesOrderType0 | Literal[''] | Unset):
        sort (ListNotesSortType0 | Literal[''] | Unset):
        search (str | Unset): Text of at most 250 characters once trimmed and normalised to NFC,
            HTML allowed, no control characters other than tab and line breaks; a one-line field (an
            icon, an adjustment's description) also refuses those and invisible or bidi control
            characters (joiners, variation selectors and tags only inside emoji and script sequences).
        resource_type (ListNotesResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):
        visibility (ListNotesVisibilityType0 | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | ListNotesResponse200 | ValidationError]
    """

    kwargs = _get_kwargs(
        page=page,
        cursor=cursor,
        limit=limit,
        order=order,
        sort=sort,
        search=search,
        resource_type=resource_type,
        resource_id=resource_id,
        visibility=visibility,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    page: int | Literal[""] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Literal[""] | Unset = UNSET,
    order: ListNotesOrderType0 | Literal[""] | Unset = UNSET,
    sort: ListNotesSortType0 | Literal[""] | Unset = UNSET,
    search: str | Unset = UNSET,
    resource_type: ListNotesResourceTypeType0 | Literal[""] | Unset = UNSET,
    resource_id: int | Literal[""] | Unset = UNSET,
    visibility: ListNotesVisibilityType0 | Literal[""] | Unset = UNSET,
) -> Any | Error | ListNotesResponse200 | ValidationError | None:
    """List / search notes

    Args:
        page (int | Literal[''] | Unset):
        cursor (str | Unset):
        limit (int | Literal[''] | Unset):
        order (ListNotesOrderType0 | Literal[''] | Unset):
        sort (ListNotesSortType0 | Literal[''] | Unset):
        search (str | Unset): Text of at most 250 characters once trimmed and normalised to NFC,
            HTML allowed, no control characters other than tab and line breaks; a one-line field (an
            icon, an adjustment's description) also refuses those and invisible or bidi control
            characters (joiners, variation selectors and tags only inside emoji and script sequences).
        resource_type (ListNotesResourceTypeType0 | Literal[''] | Unset):
        resource_id (int | Literal[''] | Unset):
        visibility (ListNotesVisibilityType0 | Literal[''] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | ListNotesResponse200 | ValidationError
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
            resource_type=resource_type,
            resource_id=resource_id,
            visibility=visibility,
        )
    ).parsed
