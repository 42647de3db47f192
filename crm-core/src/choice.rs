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
/// (`Serialize` and `Deserialize`, as text). It works in any crate: the crate using it needs
/// no dependency on serde.
///
/// ```
/// crm_core::choice_enum!(
///     /// A traffic light.
///     pub enum Light { Red = "red", Green = "green" }
/// );
/// assert_eq!("green".parse::<Light>(), Ok(Light::Green));
/// assert_eq!(Light::Red.to_string(), "red");
/// let refused = "blue".parse::<Light>().unwrap_err();
/// assert_eq!(refused.to_string(), "unknown value; expected one of: red, green");
/// ```
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
                <$name as $crate::choice::Choice>::from_text(s)
                    .ok_or($crate::choice::UnknownChoice::new(&[ $( $text ),+ ]))
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                s: S,
            ) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                d: D,
            ) -> Result<Self, D::Error> {
                let text: ::std::string::String =
                    $crate::__private::serde::Deserialize::deserialize(d)?;
                text.parse().map_err(|refused: $crate::choice::UnknownChoice| {
                    <D::Error as $crate::__private::serde::de::Error>::unknown_variant(
                        &text,
                        refused.expected(),
                    )
                })
            }
        }
    };
}

/// A text that is not one of a [`Choice`]'s values; its `Display` lists the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown value; expected one of: {}", .expected.join(", "))]
pub struct UnknownChoice {
    expected: &'static [&'static str],
}

impl UnknownChoice {
    /// The refusal of a text for a choice whose values are `expected`.
    pub const fn new(expected: &'static [&'static str]) -> Self {
        UnknownChoice { expected }
    }

    /// The values the text could have been.
    pub fn expected(&self) -> &'static [&'static str] {
        self.expected
    }
}

#[cfg(test)]
mod tests {
    crate::choice_enum!(
        /// A test choice.
        enum Light {
            Red = "red",
            Green = "green",
        }
    );

    #[test]
    fn a_choice_reads_from_its_json_text_and_an_unknown_one_names_the_values() {
        assert_eq!(
            serde_json::from_str::<Light>(r#""green""#).unwrap(),
            Light::Green
        );
        assert_eq!(serde_json::to_string(&Light::Red).unwrap(), r#""red""#);
        let e = serde_json::from_str::<Light>(r#""blue""#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown variant `blue`, expected `red` or `green`"),
            "{e}"
        );
        assert_eq!(
            "blue".parse::<Light>().unwrap_err().expected(),
            ["red", "green"]
        );
    }
}
