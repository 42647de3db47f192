//! [`Patch`]: what a PATCH command does with an optional field (keep, clear or set).

/// What a PATCH does with an optional field.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Patch<T> {
    /// Not sent: leave the stored value as it is.
    #[default]
    Keep,
    /// Sent empty: clear the stored value.
    Clear,
    /// Sent with a valid value.
    Set(T),
}

impl<T> Patch<T> {
    /// The value after applying this patch to `current`.
    pub fn apply(self, current: Option<T>) -> Option<T> {
        match self {
            Patch::Keep => current,
            Patch::Clear => None,
            Patch::Set(v) => Some(v),
        }
    }

    /// Like [`apply`](Self::apply), on a borrowed current value.
    pub fn apply_ref(&self, current: Option<T>) -> Option<T>
    where
        T: Clone,
    {
        match self {
            Patch::Keep => current,
            Patch::Clear => None,
            Patch::Set(v) => Some(v.clone()),
        }
    }
}
