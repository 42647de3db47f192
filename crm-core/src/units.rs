//! Units of measure as EN 16931 states a line's (BT-130): UN/ECE Recommendation 20 codes
//! (with the Rec 21 extension), read from a line's `unit` (API.md §19).
//!
//! A line's `unit` is free text. Its code is the unit itself when it is a code of the list
//! (`HUR`, `KGM`, `XPP`: a company that knows its codes writes them), else the code of a
//! common unit word (`hours` → `HUR`, `Tage` → `DAY`, `pcs` → `H87`), else `C62` ("one").
//!
//! ```
//! use crm_core::units::{is_code, unit_code};
//! assert_eq!(unit_code(Some("Hours")), "HUR");
//! assert_eq!(unit_code(Some("pcs")), "H87");
//! assert_eq!(unit_code(Some("XPP")), "XPP");
//! assert_eq!(unit_code(Some("bottles of wine")), "C62");
//! assert_eq!(unit_code(None), "C62");
//! assert!(is_code("MTK") && !is_code("hours"));
//! ```

mod rec20;

/// Whether `code` is a unit code EN 16931 accepts (BR-CL-23).
pub fn is_code(code: &str) -> bool {
    rec20::CODES.binary_search(&code).is_ok()
}

/// The code of a line's `unit`: the unit itself when it is a code (exactly, upper case),
/// else a common unit word's (English, German, French; case and a final `.` ignored), else
/// `C62` ("one"), which is also the code of no unit.
pub fn unit_code(unit: Option<&str>) -> &'static str {
    let Some(unit) = unit else {
        return "C62";
    };
    if let Ok(at) = rec20::CODES.binary_search(&unit.trim()) {
        return rec20::CODES[at];
    }
    let word = unit.trim().trim_end_matches('.').to_lowercase();
    match word.as_str() {
        "h" | "hr" | "hrs" | "hour" | "hours" | "stunde" | "stunden" | "std" | "heure"
        | "heures" => "HUR",
        "min" | "mins" | "minute" | "minutes" => "MIN",
        "d" | "day" | "days" | "tag" | "tage" | "jour" | "jours" => "DAY",
        "wk" | "week" | "weeks" | "woche" | "wochen" => "WEE",
        "mo" | "month" | "months" | "monat" | "monate" | "mois" => "MON",
        "yr" | "year" | "years" | "jahr" | "jahre" | "an" | "ans" => "ANN",
        "pc" | "pcs" | "piece" | "pieces" | "stk" | "stück" | "pièce" | "pièces" => "H87",
        "kg" | "kilogram" | "kilograms" => "KGM",
        "g" | "gram" | "grams" => "GRM",
        "t" | "tonne" | "tonnes" => "TNE",
        "km" | "kilometre" | "kilometres" | "kilometer" | "kilometers" => "KMT",
        "m" | "metre" | "metres" | "meter" | "meters" => "MTR",
        "m2" | "m²" | "sqm" => "MTK",
        "m3" | "m³" => "MTQ",
        "l" | "litre" | "litres" | "liter" | "liters" => "LTR",
        "kwh" => "KWH",
        "set" | "sets" => "SET",
        "pair" | "pairs" => "PR",
        _ => "C62",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_every_word_maps_to_a_code_of_it() {
        assert!(rec20::CODES.windows(2).all(|w| w[0] < w[1]));
        let words = [
            "h", "hours", "Stunden", "min", "days", "Tage", "jours", "weeks", "months", "Monate",
            "years", "pcs", "Stück", "kg", "g", "t", "km", "m", "m2", "m³", "l", "kWh", "set",
            "pairs",
        ];
        for word in words {
            let code = unit_code(Some(word));
            assert_ne!(code, "C62", "{word}");
            assert!(is_code(code), "{word} → {code}");
        }
        assert!(is_code("C62"));
    }

    #[test]
    fn a_code_given_as_the_unit_is_taken_as_is_and_only_in_upper_case() {
        assert_eq!(unit_code(Some(" KGM ")), "KGM");
        assert_eq!(unit_code(Some("E48")), "E48");
        assert_eq!(unit_code(Some("e48")), "C62");
        assert_eq!(unit_code(Some("")), "C62");
    }
}
