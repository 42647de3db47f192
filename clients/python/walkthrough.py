"""The README's walkthrough through the generated Python client (clients/python/crm-client).

    CRM_BASE=http://127.0.0.1:8080 CRM_KEY=crm_… scripts/python-client python clients/python/walkthrough.py

It sets the company, adds a client and a tax rate, makes an estimate with its items,
publishes it, converts it to an invoice with a safe retry (the same Idempotency-Key twice),
publishes the invoice, records its payment, shows a conditional update refused (412), a
typed 422 with its field errors, and pages through the notes with cursors. Every answer is
checked: the first one that is not what the walkthrough expects stops it with one line on
standard error and exit status 1.
"""

import datetime
import os
import sys
import time
import uuid

from crm_client import AuthenticatedClient
from crm_client.api.categories import create_category
from crm_client.api.clients import create_client
from crm_client.api.company import update_company
from crm_client.api.estimates import convert_estimate, create_estimate, publish_estimate, set_estimate_items
from crm_client.api.invoices import get_invoice, publish_invoice, set_invoice_items
from crm_client.api.notes import create_note, get_note, list_notes, update_note
from crm_client.api.payments import record_payment
from crm_client.api.tax_rates import create_tax_rate
from crm_client.models import (
    AddressInput,
    ConvertEstimateResponse201,
    CreateCategoryJsonBody,
    CreateCategoryJsonBodyCategoryType,
    CreateCategoryResponse201,
    CreateClientJsonBody,
    CreateClientResponse201,
    CreateEstimateJsonBody,
    CreateEstimateResponse201,
    CreateNoteJsonBody,
    CreateNoteResponse201,
    CreateTaxRateJsonBody,
    CreateTaxRateResponse201,
    Error,
    GetInvoiceResponse200,
    ListNotesResponse200,
    PublishEstimateResponse200,
    PublishInvoiceResponse200,
    RecordPaymentJsonBody,
    SetEstimateItemsJsonBody,
    SetEstimateItemsJsonBodyItemsItem,
    SetEstimateItemsResponse200,
    SetInvoiceItemsJsonBody,
    SetInvoiceItemsJsonBodyItemsItem,
    UpdateCompanyJsonBody,
    UpdateNoteJsonBody,
    ValidationError,
)
from crm_client.types import UNSET


class Stop(Exception):
    """An answer the walkthrough did not expect."""


def expect(answer, status, kind):
    """The parsed answer when it has `status` and is a `kind`, else Stop naming what came."""
    if answer.status_code != status or not isinstance(answer.parsed, kind):
        raise Stop(f"expected {status} {kind.__name__}, got {int(answer.status_code)}: {answer.content[:300]!r}")
    return answer.parsed


def check(condition, what):
    if not condition:
        raise Stop(what)


def main():
    base, key = os.environ["CRM_BASE"], os.environ["CRM_KEY"]
    api = AuthenticatedClient(base_url=base, token=key)
    today = datetime.date.today()

    # The company that issues the documents, its first client and the VAT rate it charges.
    answer = update_company.sync_detailed(
        client=api,
        body=UpdateCompanyJsonBody(
            legal_name="Example Consulting Ltd",
            trading_name="Example",
            address=AddressInput(line1="1 High Street", city="London", postcode="EC1A 1AA", country="GB"),
            vat_id="GB123456789",
            currency="GBP",
        ),
    )
    print(f"company: {int(answer.status_code)}")
    check(answer.status_code == 200, f"company: {answer.content[:300]!r}")
    customer = expect(
        create_client.sync_detailed(
            client=api,
            body=CreateClientJsonBody(
                company_name="Acme Inc",
                contact_email="billing@acme.example",
                address=AddressInput(city="Berlin", country="DE"),
                vat_id="DE123456789",
            ),
        ),
        201,
        CreateClientResponse201,
    ).data
    vat20 = expect(
        create_tax_rate.sync_detailed(client=api, body=CreateTaxRateJsonBody(name="VAT 20%", rate="20")),
        201,
        CreateTaxRateResponse201,
    ).data
    print(f"client {customer.id}, tax rate {vat20.id}")

    category = expect(
        create_category.sync_detailed(
            client=api,
            body=CreateCategoryJsonBody(
                category_name=f"Web projects {time.time_ns()}",
                category_type=CreateCategoryJsonBodyCategoryType.ESTIMATE,
            ),
        ),
        201,
        CreateCategoryResponse201,
    ).data
    estimate = expect(
        create_estimate.sync_detailed(
            client=api,
            body=CreateEstimateJsonBody(
                bill_clientid=customer.id,
                bill_categoryid=category.id,
                bill_date=today,
                bill_expiry_date=today + datetime.timedelta(days=30),
            ),
        ),
        201,
        CreateEstimateResponse201,
    ).data
    print(f"estimate {estimate.id}")

    # Its lines: the totals are the server's, to the cent (1.5 × 1385.27 is 2077.90, as in the CRM).
    totals = expect(
        set_estimate_items.sync_detailed(
            estimate.id,
            client=api,
            body=SetEstimateItemsJsonBody(
                items=[
                    SetEstimateItemsJsonBodyItemsItem(
                        description="Design", unit="hours", quantity="1.5", rate="1385.27"
                    ),
                    SetEstimateItemsJsonBodyItemsItem(description="Hosting", quantity=12, rate="9.99"),
                ],
                tax_rate_ids=[vat20.id],
            ),
        ),
        200,
        SetEstimateItemsResponse200,
    ).data.totals
    print(f"totals: subtotal {totals.subtotal}, tax {totals.tax_total_amount}, final {totals.final_amount}")
    check(
        (totals.subtotal, totals.tax_total_amount, totals.final_amount) == ("2197.78", "439.56", "2637.34"),
        f"unexpected totals {totals.to_dict()}",
    )
    published = expect(publish_estimate.sync_detailed(estimate.id, client=api), 200, PublishEstimateResponse200).data
    print(f"estimate published: {published.status.value}")

    # A safe retry: the same Idempotency-Key gives the first answer again, with no new effect.
    retry_key = f"convert-{estimate.id}-{uuid.uuid4()}"
    invoices = []
    for attempt in (1, 2):
        answer = convert_estimate.sync_detailed(estimate.id, client=api, idempotency_key=retry_key)
        invoice = expect(answer, 201, ConvertEstimateResponse201).data
        replayed = answer.headers.get("idempotent-replayed", "false")
        print(f"convert attempt {attempt}: {int(answer.status_code)}, replayed: {replayed}, invoice {invoice.id}")
        check(replayed == ("true" if attempt == 2 else "false"), f"attempt {attempt}: Idempotent-Replayed {replayed}")
        invoices.append(invoice.id)
    check(invoices[0] == invoices[1], f"the retry made another invoice: {invoices}")
    invoice_id = invoices[0]

    invoice = expect(get_invoice.sync_detailed(invoice_id, client=api), 200, GetInvoiceResponse200).data
    print(f"invoice: {invoice.status.title.value} {invoice.dates.due_date} {invoice.totals.final_amount}")
    check(invoice.totals.final_amount == "2637.34", "the invoice does not carry the estimate's totals")
    issued = expect(publish_invoice.sync_detailed(invoice_id, client=api), 200, PublishInvoiceResponse200).data
    print(f"invoice issued: {issued.status.title.value} {issued.number}")
    check(issued.status.title.value == "Due" and (issued.number or "").startswith("INV-"), "not issued")

    # Issued, it keeps what it states: a change of its lines is refused (409, a typed Error).
    refused = expect(
        set_invoice_items.sync_detailed(
            invoice_id,
            client=api,
            body=SetInvoiceItemsJsonBody(
                items=[SetInvoiceItemsJsonBodyItemsItem(description="Design", quantity=1, rate=1)]
            ),
        ),
        409,
        Error,
    )
    print(f"change of an issued invoice: 409 {refused.message}")

    # The client pays what is due: the payment makes the invoice Paid.
    due = issued.totals.amount_due
    answer = record_payment.sync_detailed(
        client=api,
        body=RecordPaymentJsonBody(
            payment_invoiceid=invoice_id, payment_amount=due, payment_date=today, payment_method="Bank transfer"
        ),
    )
    print(f"payment of {due}: {int(answer.status_code)}")
    check(answer.status_code == 201, f"payment: {answer.content[:300]!r}")
    paid = expect(get_invoice.sync_detailed(invoice_id, client=api), 200, GetInvoiceResponse200).data
    print(f"invoice: {paid.status.title.value} {paid.totals.amount_paid} {paid.totals.amount_due}")
    check((paid.status.title.value, paid.totals.amount_due) == ("Paid", "0.00"), "the invoice is not paid")

    # A conditional update: two people edit from one version; the second is told, not overwritten.
    note = expect(
        create_note.sync_detailed(client=api, body=CreateNoteJsonBody(note_title="Call", note_description="Renewal")),
        201,
        CreateNoteResponse201,
    ).data
    etag = get_note.sync_detailed(note.id, client=api).headers["etag"]
    statuses = []
    for title in ("Mine", "Theirs"):
        answer = update_note.sync_detailed(
            note.id, client=api, if_match=etag, body=UpdateNoteJsonBody(note_title=title, note_description="Agreed")
        )
        print(f"PATCH as {title}: {int(answer.status_code)}")
        statuses.append(int(answer.status_code))
    check(statuses == [200, 412], f"conditional update: {statuses}")

    # A typed 422: the field errors by field name, with Laravel's messages.
    invalid = expect(
        create_note.sync_detailed(client=api, body=CreateNoteJsonBody(note_title="", note_description="Renewal")),
        422,
        ValidationError,
    )
    errors = invalid.errors.additional_properties
    print(f"422: {invalid.message} note_title: {errors.get('note_title')}")
    check(list(errors) == ["note_title"] and errors["note_title"], f"the 422's errors: {errors}")
    # Two more notes, then every note two at a time, following the cursors.
    for title in ("Send the contract", "Book the kick-off"):
        expect(
            create_note.sync_detailed(
                client=api, body=CreateNoteJsonBody(note_title=title, note_description="Renewal")
            ),
            201,
            CreateNoteResponse201,
        )
    cursor, notes, pages = UNSET, 0, 0
    while True:
        page = expect(list_notes.sync_detailed(client=api, limit=2, cursor=cursor), 200, ListNotesResponse200)
        notes, pages = notes + len(page.data), pages + 1
        if not page.meta.next_cursor:
            break
        cursor = page.meta.next_cursor
    print(f"notes: {notes} in {pages} pages")
    print("walkthrough done")


if __name__ == "__main__":
    try:
        main()
    except Stop as stop:
        print(f"walkthrough stopped: {stop}", file=sys.stderr)
        sys.exit(1)
