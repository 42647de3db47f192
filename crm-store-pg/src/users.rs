//! People (`/api/users/me`, `crm users create`; API.md §17): the user an API key acts
//! as, and new administrators. An email address belongs to one user, ignoring case (the
//! unique index `users_email_key` of migration 0001 decides, also under concurrency:
//! "The email has already been taken.").

use crm_core::ids::UserId;
use crm_core::user::{EMAIL_TAKEN, NewUser, User, UserUpdate};
use crm_core::validation::FieldErrors;
use crm_core::webhook::EventType;
use tokio_postgres::Row;
use tokio_postgres::error::SqlState;

use crate::db::Db;
use crate::{Ctx, Store, StoreError, rows};

const USER_SQL: &str =
    "SELECT id, first_name, last_name, email, created_at, updated_at FROM users WHERE id = $1";

const LOCK_SQL: &str = "SELECT id FROM users WHERE id = $1 FOR UPDATE";

const UPDATE_SQL: &str = "UPDATE users SET first_name = COALESCE($2, first_name), \
     last_name = COALESCE($3, last_name), email = COALESCE($4, email), updated_at = now() \
     WHERE id = $1";

/// A new administrator (a team member).
const INSERT_SQL: &str = "INSERT INTO users (kind, is_admin, first_name, last_name, email) \
     VALUES ('team', TRUE, $1, $2, $3) RETURNING id";

/// An administrator by email (ignoring case), for `crm keys create --user`.
const ADMIN_BY_EMAIL_SQL: &str = "SELECT id FROM users WHERE lower(email) = lower($1) AND is_admin";

impl Store {
    /// `GET /users/me`: the acting user.
    pub async fn me(&self, ctx: Ctx) -> Result<User, StoreError> {
        read(&*self.reader().await?, ctx.actor.get()).await
    }

    /// `PATCH /users/me`: the names and the email sent.
    pub async fn update_me(&self, ctx: Ctx, cmd: &UserUpdate) -> Result<User, StoreError> {
        let id = ctx.actor.get();
        let tx = self.begin().await?;
        tx.row(LOCK_SQL, &[&id]).await?;
        tx.if_match(read(&tx, id)).await?;
        tx.run(
            UPDATE_SQL,
            &[&id, &cmd.first_name, &cmd.last_name, &cmd.email],
        )
        .await
        .map_err(email_taken)?;
        let user = read(&tx, id).await?;
        tx.emit(EventType::UserUpdated, id, &user)?;
        tx.commit().await?;
        Ok(user)
    }

    /// `crm users create`: a new administrator.
    pub async fn create_user(&self, cmd: &NewUser) -> Result<User, StoreError> {
        let tx = self.begin().await?;
        let row = tx
            .row(INSERT_SQL, &[&cmd.first_name, &cmd.last_name, &cmd.email])
            .await
            .map_err(|e| match e {
                StoreError::Database(db) => email_taken(db),
                other => other,
            })?;
        let user = read(&tx, rows::get(&row, "id")?).await?;
        tx.commit().await?;
        Ok(user)
    }

    /// The administrator with this email address, if any (`crm keys create --user`).
    pub async fn admin_by_email(&self, email: &str) -> Result<Option<UserId>, StoreError> {
        let row = self
            .primary_reader()
            .await?
            .row_opt(ADMIN_BY_EMAIL_SQL, &[&email])
            .await?;
        row.map(|r| rows::id(&r, "id", UserId::new)).transpose()
    }
}

/// A duplicate email is the 422 of the field; anything else as usual.
fn email_taken(e: tokio_postgres::Error) -> StoreError {
    let duplicate = e.code() == Some(&SqlState::UNIQUE_VIOLATION)
        && e.as_db_error().and_then(|d| d.constraint()) == Some("users_email_key");
    if duplicate {
        StoreError::Invalid(FieldErrors::single("email", EMAIL_TAKEN.to_owned()))
    } else {
        StoreError::from(e)
    }
}

async fn read(db: &impl Db, id: i64) -> Result<User, StoreError> {
    let row = db.row(USER_SQL, &[&id]).await?;
    from_row(&row)
}

fn from_row(row: &Row) -> Result<User, StoreError> {
    Ok(User {
        id: rows::id(row, "id", UserId::new)?,
        first_name: rows::get(row, "first_name")?,
        last_name: rows::get(row, "last_name")?,
        email: rows::get(row, "email")?,
        dates: rows::record_dates(row)?,
    })
}
