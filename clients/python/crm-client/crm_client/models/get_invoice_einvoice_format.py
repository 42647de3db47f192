from enum import StrEnum


class GetInvoiceEinvoiceFormat(StrEnum):
    CII = "cii"
    FACTURX = "facturx"
    PEPPOL = "peppol"
    UBL = "ubl"
    XRECHNUNG = "xrechnung"
    XRECHNUNG_CII = "xrechnung-cii"

    def __str__(self) -> str:
        return str(self.value)
