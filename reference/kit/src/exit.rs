//! A program's table of outcomes: each row an exit status, the message it
//! prints on stderr (none for a normal end) and the rule that fixes both.
//! Each pack writes its rows; the lookups and the checks every table must
//! pass are written here once.

use std::fmt;

/// A program's outcomes, one variant per row of its error table.
pub trait ExitTable: Copy + Eq + fmt::Debug + 'static {
    /// Every outcome, in the order of the assignment's table.
    const ALL: &'static [Self];

    /// The process exit status.
    fn code(self) -> u8;

    /// The message printed on stderr without its `\n`, or `None` when the
    /// outcome prints nothing there.
    fn message(self) -> Option<&'static str>;

    /// The ID of the rule that fixes this row's status and message.
    fn rule(self) -> &'static str;

    /// The outcome whose exit status is `code`, if any.
    fn from_code(code: u8) -> Option<Self> {
        Self::ALL.iter().copied().find(|e| e.code() == code)
    }
}

/// Declares a program's table of outcomes as one table: each row a variant,
/// its exit status, its stderr message (`None` or `Some(..)`) and its rule.
/// It writes the enum, its [`ExitTable`] and its `Display` (via
/// [`describe`]), so a pack states each row once and never repeats the
/// three lookups.
///
/// ```
/// reference_kit::exit_table! {
///     /// Why the program stopped.
///     pub enum Exit {
///         /// The game ended.
///         Normal = 0, None, "END-1";
///         /// Wrong argument count.
///         Usage = 1, Some("Usage: talk"), "ARGS-1";
///     }
/// }
/// use reference_kit::exit::ExitTable;
/// assert_eq!(Exit::from_code(1), Some(Exit::Usage));
/// assert_eq!(Exit::Usage.to_string(), "Usage: talk (exit 1)");
/// ```
///
/// A table may end with `cites crate::rules::ids;` (the program's rule
/// IDs, as [`rule_ids!`](crate::rule_ids) lists them): the macro then
/// writes the test that the table passes [`check_table`] against them, so
/// no program writes that test by hand.
#[macro_export]
macro_rules! exit_table {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$row:meta])*
                $variant:ident = $code:literal, $message:expr, $rule:literal;
            )+
        }
        $(cites $rules:path;)?
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$row])* $variant, )+
        }

        impl $crate::exit::ExitTable for $name {
            const ALL: &'static [Self] = &[$(Self::$variant),+];

            fn code(self) -> u8 {
                match self {
                    $(Self::$variant => $code,)+
                }
            }

            fn message(self) -> Option<&'static str> {
                match self {
                    $(Self::$variant => $message,)+
                }
            }

            fn rule(self) -> &'static str {
                match self {
                    $(Self::$variant => $rule,)+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                $crate::exit::describe(*self, f)
            }
        }

        $(
            #[cfg(test)]
            mod exit_table_is_checked {
                #[test]
                fn the_table_is_well_formed_and_cites_known_rules() {
                    assert_eq!($crate::exit::check_table::<super::$name>(&$rules()), Ok(()));
                }
            }
        )?
    };
}

/// `message (exit N)`, or `normal end (exit 0)`: how a report names an
/// outcome (each table's `Display`).
pub fn describe<E: ExitTable>(exit: E, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match exit.message() {
        Some(m) => write!(f, "{m} (exit {})", exit.code()),
        None => write!(f, "normal end (exit {})", exit.code()),
    }
}

/// Why `E`'s table is malformed: two rows with one status, a row with an
/// empty or multi-line message, or a rule ID that `rules` does not list.
pub fn check_table<E: ExitTable>(rules: &[&str]) -> Result<(), String> {
    let mut codes = std::collections::BTreeSet::new();
    for &exit in E::ALL {
        if !codes.insert(exit.code()) {
            return Err(format!("{exit:?}: status {} twice", exit.code()));
        }
        if let Some(m) = exit.message()
            && (m.is_empty() || m.contains('\n'))
        {
            return Err(format!("{exit:?}: message {m:?} is not one line"));
        }
        if !rules.contains(&exit.rule()) {
            return Err(format!(
                "{exit:?}: rule {} is not in the rulings",
                exit.rule()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Outcome {
        Normal,
        Usage,
        Broken,
    }

    impl ExitTable for Outcome {
        const ALL: &'static [Self] = &[Self::Normal, Self::Usage, Self::Broken];
        fn code(self) -> u8 {
            match self {
                Self::Normal => 0,
                Self::Usage | Self::Broken => 1,
            }
        }
        fn message(self) -> Option<&'static str> {
            match self {
                Self::Normal => None,
                Self::Usage => Some("Usage: x"),
                Self::Broken => Some("two\nlines"),
            }
        }
        fn rule(self) -> &'static str {
            "ARGS-1"
        }
    }

    struct Shown(Outcome);
    impl fmt::Display for Shown {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            describe(self.0, f)
        }
    }

    #[test]
    fn lookups_and_description() {
        assert_eq!(Outcome::from_code(1), Some(Outcome::Usage));
        assert_eq!(Outcome::from_code(7), None);
        assert_eq!(Shown(Outcome::Usage).to_string(), "Usage: x (exit 1)");
        assert_eq!(Shown(Outcome::Normal).to_string(), "normal end (exit 0)");
    }

    #[test]
    fn a_repeated_status_and_an_unknown_rule_are_found() {
        let err = check_table::<Outcome>(&["ARGS-1"]).unwrap_err();
        assert!(err.contains("status 1 twice"), "{err}");
        let err = check_table::<Outcome>(&["SYS-1"]).unwrap_err();
        assert!(err.contains("ARGS-1 is not in the rulings"), "{err}");
    }
}
