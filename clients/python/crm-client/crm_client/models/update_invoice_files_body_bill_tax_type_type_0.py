from enum import StrEnum


class UpdateInvoiceFilesBodyBillTaxTypeType0(StrEnum):
    INLINE = "inline"
    SUMMARY = "summary"
    VAT = "vat"

    def __str__(self) -> str:
        return str(self.value)
