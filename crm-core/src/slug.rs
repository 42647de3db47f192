//! URL slugs: `<id>-` followed by the name lower-cased, transliterated to ASCII, with every
//! run of other characters turned into one `-`, trimmed: `"Dev & Engineering"` with id 3
//! → `3-dev-engineering`. A name with nothing left after that gives just the id (`"3"`).

/// The slug of the record `id` named `name`.
pub fn slug(id: i64, name: &str) -> String {
    let ascii = deunicode::deunicode(name).to_ascii_lowercase();
    let mut out = id.to_string();
    let mut pending_dash = true;
    let mut any = false;
    for c in ascii.chars() {
        if c.is_ascii_alphanumeric() {
            if pending_dash {
                out.push('-');
                pending_dash = false;
            }
            out.push(c);
            any = true;
        } else if any {
            pending_dash = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn slugs_join_the_id_and_the_lower_cased_words() {
        assert_eq!(slug(3, "Dev & Engineering"), "3-dev-engineering");
        assert_eq!(slug(12, "  Support -- Tier 2 "), "12-support-tier-2");
    }

    #[test]
    fn slugs_transliterate_to_ascii() {
        assert_eq!(slug(5, "Café Crème"), "5-cafe-creme");
        assert_eq!(slug(6, "Straße"), "6-strasse");
    }

    #[test]
    fn a_name_without_letters_or_digits_gives_the_id_alone() {
        assert_eq!(slug(7, "!!!"), "7");
    }
}
