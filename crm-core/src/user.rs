//! People (`/api/users/me`, API.md §17): the user an API key acts as, who receives the
//! acceptance notices and reminders, and the administrators `crm users create` adds.

use serde::Serialize;

use crate::client::kept_unless_cleared;
use crate::ids::UserId;
use crate::input::{Form, RawMap, RawValue, TextRule, text};
use crate::party::read_email;
use crate::time::RecordDates;
use crate::validation::{FieldErrors, Rejected};

/// The message of an email address another user has.
pub const EMAIL_TAKEN: &str = "The email has already been taken.";

/// A user as `/api/users/me` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    /// User id.
    pub id: UserId,
    /// First name.
    pub first_name: String,
    /// Last name (may be empty).
    pub last_name: String,
    /// Where notices go (unique, ignoring case).
    pub email: String,
    /// Creation and update times.
    pub dates: RecordDates,
}

/// `PATCH /users/me`: the names and the email sent (none can be cleared).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserUpdate {
    /// `first_name`.
    pub first_name: Option<String>,
    /// `last_name`.
    pub last_name: Option<String>,
    /// `email`.
    pub email: Option<String>,
}

impl UserUpdate {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let update = UserUpdate {
            first_name: kept_unless_cleared(&mut form, "first_name", text(TextRule::TITLE)),
            last_name: kept_unless_cleared(&mut form, "last_name", text(TextRule::TITLE)),
            email: kept_unless_cleared(&mut form, "email", read_email),
        };
        form.finish()?;
        Ok(update)
    }
}

/// `crm users create --email E --name N`: a new administrator. The name's last word is
/// the last name, the rest the first name (a single word is the first name alone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUser {
    /// First name.
    pub first_name: String,
    /// Last name (may be empty).
    pub last_name: String,
    /// Email address.
    pub email: String,
}

impl NewUser {
    /// Reads the command's two values, with the API's rules for them.
    pub fn parse(email: &str, name: &str) -> Result<NewUser, FieldErrors> {
        let mut errors = FieldErrors::new();
        let email = read_email("email", &RawValue::text(email), &mut errors);
        let name =
            crate::input::read_text("name", &RawValue::text(name), TextRule::TITLE, &mut errors)
                .filter(|n| !n.is_empty());
        if name.is_none() && !errors.has("name") {
            errors.add("name", crate::validation::message::required("name"));
        }
        errors.clone().into_result()?;
        let (Some(email), Some(name)) = (email, name) else {
            return Err(errors);
        };
        let (first_name, last_name) = match name.rsplit_once(' ') {
            Some((first, last)) => (first.trim().to_owned(), last.to_owned()),
            None => (name, String::new()),
        };
        Ok(NewUser {
            first_name,
            last_name,
            email,
        })
    }
}

/// Whether `text` is an email address a user may have (for the CLI's `--user`).
pub fn looks_like_email(text: &str) -> bool {
    crate::party::read::is_email(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw};

    #[test]
    fn a_patch_cannot_clear_a_name_or_the_email() {
        let r = UserUpdate::parse(&raw(&[("first_name", ""), ("email", "x")])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "first_name"),
            ["The first name field is required."]
        );
        assert_eq!(
            msg(&r.errors, "email"),
            ["The email must be a valid email address."]
        );
        let u = UserUpdate::parse(&raw(&[("email", "ops@acme.example")])).unwrap();
        assert_eq!(
            (u.first_name, u.email.as_deref()),
            (None, Some("ops@acme.example"))
        );
    }

    #[test]
    fn a_new_users_name_splits_at_its_last_word() {
        let u = NewUser::parse("ann@acme.example", "Ann Marie Smith").unwrap();
        assert_eq!(
            (u.first_name.as_str(), u.last_name.as_str()),
            ("Ann Marie", "Smith")
        );
        let u = NewUser::parse("bo@acme.example", "Bo").unwrap();
        assert_eq!((u.first_name.as_str(), u.last_name.as_str()), ("Bo", ""));
        let e = NewUser::parse("nobody", "").unwrap_err();
        assert!(e.has("email") && e.has("name"));
    }
}
