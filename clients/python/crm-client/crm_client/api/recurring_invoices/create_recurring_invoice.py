from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_recurring_invoice_data_body import CreateRecurringInvoiceDataBody
from ...models.create_recurring_invoice_files_body import CreateRecurringInvoiceFilesBody
from ...models.create_recurring_invoice_json_body import CreateRecurringInvoiceJsonBody
from ...models.create_recurring_invoice_response_201 import CreateRecurringInvoiceResponse201
from ...models.error import Error
from ...models.idempotency_key_reused import IdempotencyKeyReused
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateRecurringInvoiceJsonBody
    | CreateRecurringInvoiceDataBody
    | CreateRecurringInvoiceFilesBody
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/recurring-invoices",
    }

    if isinstance(body, CreateRecurringInvoiceJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, CreateRecurringInvoiceDataBody):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, CreateRecurringInvoiceFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError | None:
    if response.status_code == 201:
        response_201 = CreateRecurringInvoiceResponse201.from_dict(response.json())

        return response_201

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 422:

        def _parse_response_422(data: object) -> IdempotencyKeyReused | ValidationError:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_422_type_0 = ValidationError.from_dict(data)

                return response_422_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_422_type_1 = IdempotencyKeyReused.from_dict(data)

            return response_422_type_1

        response_422 = _parse_response_422(response.json())

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
) -> Response[Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateRecurringInvoiceJsonBody
    | CreateRecurringInvoiceDataBody
    | CreateRecurringInvoiceFilesBody
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError]:
    """Create a recurring invoice

    Args:
        idempotency_key (str | Unset):
        body (CreateRecurringInvoiceJsonBody):
        body (CreateRecurringInvoiceDataBody):
        body (CreateRecurringInvoiceFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateRecurringInvoiceJsonBody
    | CreateRecurringInvoiceDataBody
    | CreateRecurringInvoiceFilesBody
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError | None:
    """Create a recurring invoice

    Args:
        idempotency_key (str | Unset):
        body (CreateRecurringInvoiceJsonBody):
        body (CreateRecurringInvoiceDataBody):
        body (CreateRecurringInvoiceFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateRecurringInvoiceJsonBody
    | CreateRecurringInvoiceDataBody
    | CreateRecurringInvoiceFilesBody
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError]:
    """Create a recurring invoice

    Args:
        idempotency_key (str | Unset):
        body (CreateRecurringInvoiceJsonBody):
        body (CreateRecurringInvoiceDataBody):
        body (CreateRecurringInvoiceFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateRecurringInvoiceJsonBody
    | CreateRecurringInvoiceDataBody
    | CreateRecurringInvoiceFilesBody
    | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError | None:
    """Create a recurring invoice

    Args:
        idempotency_key (str | Unset):
        body (CreateRecurringInvoiceJsonBody):
        body (CreateRecurringInvoiceDataBody):
        body (CreateRecurringInvoiceFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CreateRecurringInvoiceResponse201 | Error | IdempotencyKeyReused | ValidationError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
