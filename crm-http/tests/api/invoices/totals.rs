//! Every totals reference vector through `PUT /api/invoices/{id}/items`: the estimates'
//! vector run ([`crate::estimates::totals::every_vector_through`]) on the invoice area.

#[tokio::test]
async fn every_totals_vector_is_reproduced_to_the_cent_through_invoice_items() {
    crate::estimates::totals::every_vector_through("invoices", "invoice").await;
}
