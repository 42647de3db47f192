//! ISO 4217 alphabetic currency codes, as EN 16931 accepts them (code list BR-CL-04 of the
//! CEN EN 16931 validation artefacts, version 1.3.x). Sorted, so a code is found by
//! binary search.

/// Every code, sorted.
pub const CURRENCIES: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD",
    "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUC", "CUP",
    "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP",
    "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS",
    "INR", "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW",
    "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD",
    "MMK", "MNT", "MOP", "MRO", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN",
    "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR",
    "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS",
    "SRD", "SSP", "STD", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD",
    "TWD", "TZS", "UAH", "UGX", "USD", "USN", "UYI", "UYU", "UZS", "VED", "VES", "VND", "VUV",
    "WST", "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XDR", "XOF", "XPD", "XPF",
    "XPT", "XSU", "XTS", "XUA", "XXX", "YER", "ZAR", "ZMW", "ZWG",
];

/// The codes whose minor unit is not 2 (ISO 4217 list one, published by SIX Financial
/// Information, amendment 179 of 2025): `(code, decimals)`, sorted. `None`: the standard
/// gives no minor unit ("N.A.": precious metals, bond-market units, SDR, test and "no
/// currency" codes). Every other code of [`CURRENCIES`] has 2.
pub const MINOR_UNITS: &[(&str, Option<u32>)] = &[
    ("BHD", Some(3)),
    ("BIF", Some(0)),
    ("CLF", Some(4)),
    ("CLP", Some(0)),
    ("DJF", Some(0)),
    ("GNF", Some(0)),
    ("IQD", Some(3)),
    ("ISK", Some(0)),
    ("JOD", Some(3)),
    ("JPY", Some(0)),
    ("KMF", Some(0)),
    ("KRW", Some(0)),
    ("KWD", Some(3)),
    ("LYD", Some(3)),
    ("OMR", Some(3)),
    ("PYG", Some(0)),
    ("RWF", Some(0)),
    ("TND", Some(3)),
    ("UGX", Some(0)),
    ("UYI", Some(0)),
    ("VND", Some(0)),
    ("VUV", Some(0)),
    ("XAF", Some(0)),
    ("XAG", None),
    ("XAU", None),
    ("XBA", None),
    ("XBB", None),
    ("XBC", None),
    ("XBD", None),
    ("XDR", None),
    ("XOF", Some(0)),
    ("XPD", None),
    ("XPF", Some(0)),
    ("XPT", None),
    ("XSU", None),
    ("XTS", None),
    ("XUA", None),
    ("XXX", None),
];

/// The symbols a person recognises for the most used currencies, sorted by code; a
/// currency without one is shown by its code alone. (Common usage, as the Unicode CLDR
/// English locale writes them where unambiguous with the code beside.)
pub const SYMBOLS: &[(&str, &str)] = &[
    ("AUD", "A$"),
    ("BRL", "R$"),
    ("CAD", "CA$"),
    ("CNY", "CN¥"),
    ("EUR", "€"),
    ("GBP", "£"),
    ("HKD", "HK$"),
    ("ILS", "₪"),
    ("INR", "₹"),
    ("JPY", "¥"),
    ("KRW", "₩"),
    ("MXN", "MX$"),
    ("NGN", "₦"),
    ("NZD", "NZ$"),
    ("PHP", "₱"),
    ("PLN", "zł"),
    ("THB", "฿"),
    ("TRY", "₺"),
    ("TWD", "NT$"),
    ("UAH", "₴"),
    ("USD", "$"),
    ("VND", "₫"),
];
