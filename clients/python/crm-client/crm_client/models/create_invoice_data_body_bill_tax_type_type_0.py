from enum import StrEnum


class CreateInvoiceDataBodyBillTaxTypeType0(StrEnum):
    INLINE = "inline"
    SUMMARY = "summary"
    VAT = "vat"

    def __str__(self) -> str:
        return str(self.value)
