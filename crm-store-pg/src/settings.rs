//! The settings every instance sharing the database must agree on (`instance_settings`,
//! migration 0027; issue 47): the webhook URL policy, the public URL, the company name,
//! the link lifetime, the PDFs' paper, the PDF attached to emails. Which settings those
//! are is the caller's (`crm serve` and `crm deliver` name their flags); this module
//! stores them and compares.
//!
//! [`Store::agree_settings`] runs once at start, in one transaction that locks the table,
//! so two instances starting together on an empty database cannot both store their own
//! values: a setting not stored yet is stored, one stored with the same value passes, and
//! one stored with another value is a [`Disagreement`] that refuses the start, unless the
//! instance takes the stored values over, when its own replace them.

use std::collections::BTreeMap;

use crate::db::Db;
use crate::error::StoreError;
use crate::rows;
use crate::store::Store;

/// One setting as this instance runs with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The flag without its dashes (`webhook-allow-http`): the stored name, and what a
    /// refusal names (`--webhook-allow-http`).
    pub name: &'static str,
    /// Its value as the flag's parser gave it (`true`, `https://crm.example.com`).
    pub value: String,
}

/// A setting whose stored value is not this instance's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// The setting's name (the flag without its dashes).
    pub name: &'static str,
    /// This instance's value.
    pub ours: String,
    /// The value stored by the instances before it.
    pub stored: String,
}

/// What [`Store::agree_settings`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Settings that were not stored yet and now hold this instance's values.
    pub stored: Vec<&'static str>,
    /// Settings stored with other values: refused (nothing was written), or replaced by
    /// this instance's when it took them over.
    pub differing: Vec<Disagreement>,
    /// Every stored setting once the agreement is made (before it, when refused), by name:
    /// also those this instance did not name (a setting it leaves to the database).
    pub values: BTreeMap<String, String>,
}

/// The settings of `ours` not in `stored` (to store) and those stored with another value.
pub fn compare(
    ours: &[Setting],
    stored: &BTreeMap<String, String>,
) -> (Vec<&'static str>, Vec<Disagreement>) {
    let mut missing = Vec::new();
    let mut differing = Vec::new();
    for setting in ours {
        match stored.get(setting.name) {
            None => missing.push(setting.name),
            Some(value) if *value == setting.value => {}
            Some(value) => differing.push(Disagreement {
                name: setting.name,
                ours: setting.value.clone(),
                stored: value.clone(),
            }),
        }
    }
    (missing, differing)
}

/// One start at a time: the check and the writes below see every setting stored by an
/// instance that started before.
const LOCK_SQL: &str = "LOCK TABLE instance_settings IN SHARE ROW EXCLUSIVE MODE";
const STORED_SQL: &str = "SELECT name, value FROM instance_settings";
const STORE_SQL: &str = "INSERT INTO instance_settings (name, value) VALUES ($1, $2) \
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()";

impl Store {
    /// Compares `ours` with the settings stored by the instances that share this database,
    /// storing those not stored yet. A setting stored with another value is written only
    /// when `take_over` is set (this instance's value replaces it); otherwise nothing at
    /// all is written and the caller refuses to start with the returned
    /// [`Agreement::differing`].
    pub async fn agree_settings(
        &self,
        ours: &[Setting],
        take_over: bool,
    ) -> Result<Agreement, StoreError> {
        let tx = self.begin().await?;
        tx.run(LOCK_SQL, &[]).await?;
        let stored = tx
            .rows(STORED_SQL, &[])
            .await?
            .iter()
            .map(|row| Ok((rows::get(row, "name")?, rows::get(row, "value")?)))
            .collect::<Result<BTreeMap<String, String>, StoreError>>()?;
        let (missing, differing) = compare(ours, &stored);
        let mut values = stored;
        if !differing.is_empty() && !take_over {
            // Dropping the transaction rolls it back: a refused start writes nothing.
            return Ok(Agreement {
                stored: Vec::new(),
                differing,
                values,
            });
        }
        for setting in ours {
            let write =
                missing.contains(&setting.name) || differing.iter().any(|d| d.name == setting.name);
            if write {
                tx.run(STORE_SQL, &[&setting.name, &setting.value]).await?;
                values.insert(setting.name.to_owned(), setting.value.clone());
            }
        }
        tx.commit().await?;
        Ok(Agreement {
            stored: missing,
            differing,
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(name: &'static str, value: &str) -> Setting {
        Setting {
            name,
            value: value.to_owned(),
        }
    }

    #[test]
    fn missing_settings_are_stored_and_different_ones_reported_with_both_values() {
        let ours = [
            setting("webhook-allow-http", "true"),
            setting("public-url", "https://crm.example.com"),
            setting("paper", "a4"),
        ];
        let stored: BTreeMap<String, String> = [
            ("webhook-allow-http", "false"),
            ("paper", "a4"),
            ("retired-setting", "x"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let (missing, differing) = compare(&ours, &stored);
        assert_eq!(missing, ["public-url"]);
        assert_eq!(
            differing,
            [Disagreement {
                name: "webhook-allow-http",
                ours: "true".to_owned(),
                stored: "false".to_owned(),
            }]
        );
        // On an empty database every setting is missing, none differs.
        let (missing, differing) = compare(&ours, &BTreeMap::new());
        assert_eq!(missing.len(), 3);
        assert!(differing.is_empty());
    }
}
