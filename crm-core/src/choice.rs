//! Closed sets of text values: the [`Choice`] trait, the [`choice_enum!`](crate::choice_enum)
//! macro that declares one, and [`UnknownChoice`].
//!
//! It sits below [`validation`](crate::validation) and [`input`](crate::input) (which
//! re-exports it as `crm_core::input::Choice`) so that the kinds a reference names
//! ([`references`](crate::references)) can be declared with it without an import cycle.

/// A closed set of text values (`draft`, `new`, …) read from input and shown in output.
pub trait Choice: Sized + Copy + 'static {
    /// Every value with its text.
    const CHOICES: &'static [(&'static str, Self)];

    /// The value named `text`, if any.
    fn from_text(text: &str) -> Option<Self> {
        Self::CHOICES
            .iter()
            .find(|(t, _)| *t == text)
            .map(|(_, v)| *v)
    }
}

/// Declares a [`Choice`] enum with its texts, `as_str`, `Display`, `FromStr` and serde
/// (as text).
#[macro_export]
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name { $( $(#[$vmeta])* $variant ),+ }

        impl $crate::choice::Choice for $name {
            const CHOICES: &'static [(&'static str, Self)] = &[ $( ($text, $name::$variant) ),+ ];
        }

        impl $name {
            /// The value's text.
            $vis fn as_str(self) -> &'static str {
                match self { $( $name::$variant => $text ),+ }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::choice::UnknownChoice;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$name as $crate::choice::Choice>::from_text(s).ok_or($crate::choice::UnknownChoice)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
    };
}

/// A text that is not one of a [`Choice`]'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown value")]
pub struct UnknownChoice;
