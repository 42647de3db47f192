//! Units of measure (BT-130) in UN/ECE Recommendation 20, derived from a line's unit word.

/// The Rec 20 code for a line's `unit` (`hours` → `HUR`, `days` → `DAY`, `kg` → `KGM`, …);
/// `C62` ("one") for no unit or one not known here.
///
/// ```
/// use crm_einvoice::units::unit_code;
/// assert_eq!(unit_code(Some("Hours")), "HUR");
/// assert_eq!(unit_code(Some("pcs")), "H87");
/// assert_eq!(unit_code(None), "C62");
/// ```
pub fn unit_code(unit: Option<&str>) -> &'static str {
    let Some(unit) = unit else {
        return "C62";
    };
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
