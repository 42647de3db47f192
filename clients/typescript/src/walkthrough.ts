// The README's walkthrough through openapi-fetch and the types openapi-typescript made from
// the OpenAPI document (src/schema.d.ts), type-checked by `tsc --strict`:
//
//   CRM_BASE=http://127.0.0.1:8080 CRM_KEY=crm_… scripts/typescript-client run
//
// It sets the company, adds a client and a tax rate, makes an estimate with its items,
// publishes it, converts it to an invoice with a safe retry (the same Idempotency-Key twice),
// publishes the invoice, records its payment, shows a conditional update refused (412), a
// typed 422 with its field errors, and pages through the notes with cursors. Every answer
// is checked: the first one the walkthrough did not expect stops it with one line on
// standard error and exit status 1.

import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type ValidationError = components["schemas"]["ValidationError"];

class Stop extends Error {}

/** The data of a successful answer, or Stop naming what came instead. */
function expect<T>(what: string, answer: { data?: T; error?: unknown; response: Response }, status: number): T {
  if (answer.response.status !== status || answer.data === undefined) {
    throw new Stop(`${what}: expected ${status}, got ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

function check(condition: boolean, what: string): void {
  if (!condition) {
    throw new Stop(what);
  }
}

function isValidationError(error: unknown): error is ValidationError {
  return typeof error === "object" && error !== null && "errors" in error && "message" in error;
}

async function main(): Promise<void> {
  const base = process.env["CRM_BASE"];
  const key = process.env["CRM_KEY"];
  if (!base || !key) {
    throw new Stop("set CRM_BASE and CRM_KEY");
  }
  const api = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${key}` } });
  const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const today = day(0);

  // The company that issues the documents, its first client and the VAT rate it charges.
  const company = await api.PATCH("/api/company", {
    body: {
      legal_name: "Example Consulting Ltd",
      trading_name: "Example",
      address: { line1: "1 High Street", city: "London", postcode: "EC1A 1AA", country: "GB" },
      vat_id: "GB123456789",
      currency: "GBP",
    },
  });
  console.log(`company: ${company.response.status}`);
  expect("company", company, 200);
  const client = expect(
    "client",
    await api.POST("/api/clients", {
      body: {
        company_name: "Acme Inc",
        contact_email: "billing@acme.example",
        address: { city: "Berlin", country: "DE" },
        vat_id: "DE123456789",
      },
    }),
    201,
  ).data;
  const vat20 = expect("tax rate", await api.POST("/api/tax-rates", { body: { name: "VAT 20%", rate: 20 } }), 201).data;
  console.log(`client ${client.id}, tax rate ${vat20.id}`);

  const category = expect(
    "category",
    await api.POST("/api/categories", {
      body: { category_name: `Web projects ${Date.now()}`, category_type: "estimate" },
    }),
    201,
  ).data;
  const estimate = expect(
    "estimate",
    await api.POST("/api/estimates", {
      body: { bill_clientid: client.id, bill_categoryid: category.id, bill_date: today, bill_expiry_date: day(30) },
    }),
    201,
  ).data;
  console.log(`estimate ${estimate.id}`);

  // Its lines: the totals are the server's, to the cent (1.5 × 1385.27 is 2077.90, as in the CRM).
  const totals = expect(
    "items",
    await api.PUT("/api/estimates/{id}/items", {
      params: { path: { id: estimate.id } },
      body: {
        items: [
          { description: "Design", unit: "hours", quantity: "1.5", rate: "1385.27" },
          { description: "Hosting", quantity: 12, rate: "9.99" },
        ],
        tax_rate_ids: [vat20.id],
      },
    }),
    200,
  ).data.totals;
  console.log(`totals: subtotal ${totals.subtotal}, tax ${totals.tax_total_amount}, final ${totals.final_amount}`);
  check(totals.final_amount === "2637.34", `unexpected totals ${JSON.stringify(totals)}`);
  const published = expect(
    "publish",
    await api.PUT("/api/estimates/{id}/publish", { params: { path: { id: estimate.id } } }),
    200,
  ).data;
  console.log(`estimate published: ${published.status}`);

  // A safe retry: the same Idempotency-Key gives the first answer again, with no new effect.
  const retryKey = `convert-${estimate.id}-${Date.now()}`;
  const invoices: number[] = [];
  for (const attempt of [1, 2]) {
    const answer = await api.POST("/api/estimates/{id}/convert-to-invoice", {
      params: { path: { id: estimate.id }, header: { "Idempotency-Key": retryKey } },
    });
    const invoice = expect("convert", answer, 201).data;
    const replayed = answer.response.headers.get("idempotent-replayed") ?? "false";
    console.log(`convert attempt ${attempt}: ${answer.response.status}, replayed: ${replayed}, invoice ${invoice.id}`);
    check(replayed === (attempt === 2 ? "true" : "false"), `attempt ${attempt}: Idempotent-Replayed ${replayed}`);
    invoices.push(invoice.id);
  }
  check(invoices[0] === invoices[1], `the retry made another invoice: ${invoices.join(", ")}`);
  const invoiceId = invoices[0] ?? 0;

  const invoice = expect(
    "invoice",
    await api.GET("/api/invoices/{id}", { params: { path: { id: invoiceId } } }),
    200,
  ).data;
  console.log(`invoice: ${invoice.status.title} ${invoice.dates.due_date} ${invoice.totals.final_amount}`);
  const issued = expect(
    "publish invoice",
    await api.PUT("/api/invoices/{id}/publish", { params: { path: { id: invoiceId } } }),
    200,
  ).data;
  console.log(`invoice issued: ${issued.status.title} ${issued.number}`);

  // Issued, it keeps what it states: a change of its lines is refused (409).
  const refused = await api.PUT("/api/invoices/{id}/items", {
    params: { path: { id: invoiceId } },
    body: { items: [{ description: "Design", quantity: 1, rate: 1 }] },
  });
  console.log(`change of an issued invoice: ${refused.response.status} ${refused.error?.message}`);
  check(refused.response.status === 409, "an issued invoice's lines changed");

  // The client pays what is due: the payment makes the invoice Paid.
  const due = issued.totals.amount_due;
  const payment = await api.POST("/api/payments", {
    body: { payment_invoiceid: invoiceId, payment_amount: due, payment_date: today, payment_method: "Bank transfer" },
  });
  console.log(`payment of ${due}: ${payment.response.status}`);
  expect("payment", payment, 201);
  const paid = expect(
    "paid invoice",
    await api.GET("/api/invoices/{id}", { params: { path: { id: invoiceId } } }),
    200,
  ).data;
  console.log(`invoice: ${paid.status.title} ${paid.totals.amount_paid} ${paid.totals.amount_due}`);
  check(paid.status.title === "Paid" && paid.totals.amount_due === "0.00", "the invoice is not paid");

  // A conditional update: two people edit from one version; the second is told, not overwritten.
  const note = expect(
    "note",
    await api.POST("/api/notes", { body: { note_title: "Call", note_description: "Renewal" } }),
    201,
  ).data;
  const shown = await api.GET("/api/notes/{id}", { params: { path: { id: note.id } } });
  const etag = shown.response.headers.get("etag") ?? "";
  const statuses: number[] = [];
  for (const title of ["Mine", "Theirs"]) {
    const answer = await api.PATCH("/api/notes/{id}", {
      params: { path: { id: note.id }, header: { "If-Match": etag } },
      body: { note_title: title, note_description: "Agreed" },
    });
    console.log(`PATCH as ${title}: ${answer.response.status}`);
    statuses.push(answer.response.status);
  }
  check(statuses.join(" ") === "200 412", `conditional update: ${statuses.join(" ")}`);

  // A typed 422: the field errors by field name, with Laravel's messages.
  const invalid = await api.POST("/api/notes", { body: { note_title: "", note_description: "Renewal" } });
  check(invalid.response.status === 422 && isValidationError(invalid.error), "an empty title was not a 422");
  if (isValidationError(invalid.error)) {
    console.log(`422: ${invalid.error.message} note_title: ${JSON.stringify(invalid.error.errors["note_title"])}`);
    check(Object.keys(invalid.error.errors).join() === "note_title", "the 422's fields");
  }

  // Two more notes, then every note two at a time, following the cursors.
  for (const title of ["Send the contract", "Book the kick-off"]) {
    expect("note", await api.POST("/api/notes", { body: { note_title: title, note_description: "Renewal" } }), 201);
  }
  let cursor: string | undefined;
  let notes = 0;
  let pages = 0;
  do {
    const page = expect(
      "notes",
      await api.GET("/api/notes", { params: { query: cursor ? { limit: 2, cursor } : { limit: 2 } } }),
      200,
    );
    notes += page.data.length;
    pages += 1;
    cursor = page.meta.next_cursor ?? undefined;
  } while (cursor);
  console.log(`notes: ${notes} in ${pages} pages`);
  console.log("walkthrough done");
}

main().catch((error: unknown) => {
  console.error(`walkthrough stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
