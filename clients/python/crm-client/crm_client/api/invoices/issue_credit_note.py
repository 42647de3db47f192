from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.idempotency_key_reused import IdempotencyKeyReused
from ...models.issue_credit_note_data_body import IssueCreditNoteDataBody
from ...models.issue_credit_note_files_body import IssueCreditNoteFilesBody
from ...models.issue_credit_note_json_body import IssueCreditNoteJsonBody
from ...models.issue_credit_note_response_201 import IssueCreditNoteResponse201
from ...models.validation_error import ValidationError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    body: IssueCreditNoteJsonBody | IssueCreditNoteDataBody | IssueCreditNoteFilesBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/invoices/{id}/credit-notes".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, IssueCreditNoteJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, IssueCreditNoteDataBody):
        _kwargs["data"] = body.to_dict()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if isinstance(body, IssueCreditNoteFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201 | None:
    if response.status_code == 201:
        response_201 = IssueCreditNoteResponse201.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
) -> Response[Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201]:
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
    body: IssueCreditNoteJsonBody | IssueCreditNoteDataBody | IssueCreditNoteFilesBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201]:
    """Issue a credit note

     Corrects an issued invoice, which is never changed (API.md §18). Without `items`, credits the whole
    invoice (its lines, taxes and totals copied; only while nothing of it is credited); with `items`
    (and, in summary mode, `tax_rate_ids`), credits those lines, priced like the invoice's under its tax
    mode and totals policy, without its header discount or adjustment. Issued at once with the next
    number of the credit notes' series, in one transaction that locks the invoice: a credit note first
    reduces what is still due (`applied_amount`), the rest is `refund_amount`; the invoice's
    `amount_credited`, `amount_due` and status follow (nothing due and something paid: Paid; nothing due
    and nothing paid: Cancelled). Never more than what is not yet credited, under concurrent credit
    notes and payments (422 on `items`: "The credit note may not be greater than the amount not yet
    credited."; nothing: "The credit note must be greater than zero."). A draft invoice is changed, not
    credited (409). No email is sent: `sendCreditNoteEmail` sends it.

    Args:
        id (int):
        idempotency_key (str | Unset):
        body (IssueCreditNoteJsonBody):
        body (IssueCreditNoteDataBody):
        body (IssueCreditNoteFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    body: IssueCreditNoteJsonBody | IssueCreditNoteDataBody | IssueCreditNoteFilesBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201 | None:
    """Issue a credit note

     Corrects an issued invoice, which is never changed (API.md §18). Without `items`, credits the whole
    invoice (its lines, taxes and totals copied; only while nothing of it is credited); with `items`
    (and, in summary mode, `tax_rate_ids`), credits those lines, priced like the invoice's under its tax
    mode and totals policy, without its header discount or adjustment. Issued at once with the next
    number of the credit notes' series, in one transaction that locks the invoice: a credit note first
    reduces what is still due (`applied_amount`), the rest is `refund_amount`; the invoice's
    `amount_credited`, `amount_due` and status follow (nothing due and something paid: Paid; nothing due
    and nothing paid: Cancelled). Never more than what is not yet credited, under concurrent credit
    notes and payments (422 on `items`: "The credit note may not be greater than the amount not yet
    credited."; nothing: "The credit note must be greater than zero."). A draft invoice is changed, not
    credited (409). No email is sent: `sendCreditNoteEmail` sends it.

    Args:
        id (int):
        idempotency_key (str | Unset):
        body (IssueCreditNoteJsonBody):
        body (IssueCreditNoteDataBody):
        body (IssueCreditNoteFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: IssueCreditNoteJsonBody | IssueCreditNoteDataBody | IssueCreditNoteFilesBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201]:
    """Issue a credit note

     Corrects an issued invoice, which is never changed (API.md §18). Without `items`, credits the whole
    invoice (its lines, taxes and totals copied; only while nothing of it is credited); with `items`
    (and, in summary mode, `tax_rate_ids`), credits those lines, priced like the invoice's under its tax
    mode and totals policy, without its header discount or adjustment. Issued at once with the next
    number of the credit notes' series, in one transaction that locks the invoice: a credit note first
    reduces what is still due (`applied_amount`), the rest is `refund_amount`; the invoice's
    `amount_credited`, `amount_due` and status follow (nothing due and something paid: Paid; nothing due
    and nothing paid: Cancelled). Never more than what is not yet credited, under concurrent credit
    notes and payments (422 on `items`: "The credit note may not be greater than the amount not yet
    credited."; nothing: "The credit note must be greater than zero."). A draft invoice is changed, not
    credited (409). No email is sent: `sendCreditNoteEmail` sends it.

    Args:
        id (int):
        idempotency_key (str | Unset):
        body (IssueCreditNoteJsonBody):
        body (IssueCreditNoteDataBody):
        body (IssueCreditNoteFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    body: IssueCreditNoteJsonBody | IssueCreditNoteDataBody | IssueCreditNoteFilesBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201 | None:
    """Issue a credit note

     Corrects an issued invoice, which is never changed (API.md §18). Without `items`, credits the whole
    invoice (its lines, taxes and totals copied; only while nothing of it is credited); with `items`
    (and, in summary mode, `tax_rate_ids`), credits those lines, priced like the invoice's under its tax
    mode and totals policy, without its header discount or adjustment. Issued at once with the next
    number of the credit notes' series, in one transaction that locks the invoice: a credit note first
    reduces what is still due (`applied_amount`), the rest is `refund_amount`; the invoice's
    `amount_credited`, `amount_due` and status follow (nothing due and something paid: Paid; nothing due
    and nothing paid: Cancelled). Never more than what is not yet credited, under concurrent credit
    notes and payments (422 on `items`: "The credit note may not be greater than the amount not yet
    credited."; nothing: "The credit note must be greater than zero."). A draft invoice is changed, not
    credited (409). No email is sent: `sendCreditNoteEmail` sends it.

    Args:
        id (int):
        idempotency_key (str | Unset):
        body (IssueCreditNoteJsonBody):
        body (IssueCreditNoteDataBody):
        body (IssueCreditNoteFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | IdempotencyKeyReused | ValidationError | IssueCreditNoteResponse201
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
