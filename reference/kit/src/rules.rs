//! Typed rule IDs: [`rule_ids!`] turns a pack's list of `Variant => "ID"`
//! pairs into an enum, the list in the rulings' order, `ids()`, `id()`,
//! `from_id()` and `Display`, so that code citing a rule cannot misspell it and each
//! pack writes only its list.

/// Declares `pub enum Rule` and `pub const ALL` from `Variant => "ID"`
/// pairs, in the order of the rulings, and a test that the IDs are
/// well formed and distinct.
#[macro_export]
macro_rules! rule_ids {
    ($($variant:ident => $id:literal),+ $(,)?) => {
        /// One rule of the rulings.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $(
                #[doc = $id]
                $variant,
            )+
        }

        /// Every rule, in the rulings' order.
        pub const ALL: &[Rule] = &[$(Rule::$variant),+];

        /// Every rule's ID, in the rulings' order: the list a pack
        /// registers and an exit table cites.
        pub fn ids() -> ::std::vec::Vec<&'static str> {
            ALL.iter().map(|r| r.id()).collect()
        }

        impl Rule {
            /// The rule's ID as the rulings write it (`ARGS-1`).
            pub const fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)+
                }
            }

            /// The rule whose ID is `id`, if any.
            pub fn from_id(id: &str) -> Option<Self> {
                ALL.iter().copied().find(|r| r.id() == id)
            }
        }

        impl ::std::fmt::Display for Rule {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.id())
            }
        }

        #[cfg(test)]
        mod rule_ids_are_checked {
            #[test]
            fn ids_are_distinct_and_well_formed() {
                assert_eq!($crate::rules::check_ids(super::ids()), Ok(()));
            }
        }
    };
}

/// Why a list of rule IDs is not a well-formed list: an ID that is not
/// `FAMILY-N` (capitals, a positive number) or one given twice.
pub fn check_ids<'a>(ids: impl IntoIterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = std::collections::BTreeSet::new();
    for id in ids {
        let (family, number) = id.split_once('-').unwrap_or_default();
        let family_ok = !family.is_empty() && family.bytes().all(|b| b.is_ascii_uppercase());
        let number_ok = number.parse::<u16>().is_ok_and(|n| n > 0) && !number.starts_with('0');
        if !(family_ok && number_ok) {
            return Err(format!("{id:?} is not FAMILY-N"));
        }
        if !seen.insert(id) {
            return Err(format!("{id} is listed twice"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_ids;

    mod pack {
        rule_ids! {
            Args1 => "ARGS-1",
            Args2 => "ARGS-2",
            Sys1 => "SYS-1",
        }
    }

    #[test]
    fn the_macro_keeps_the_order_and_the_ids() {
        use pack::{ALL, Rule};
        assert_eq!(ALL, &[Rule::Args1, Rule::Args2, Rule::Sys1]);
        assert_eq!(Rule::Args2.id(), "ARGS-2");
        assert_eq!(Rule::Sys1.to_string(), "SYS-1");
        assert_eq!(Rule::from_id("ARGS-1"), Some(Rule::Args1));
        assert_eq!(Rule::from_id("ARGS-3"), None);
        assert!(check_ids(ALL.iter().map(|r| r.id())).is_ok());
    }

    #[test]
    fn malformed_and_repeated_ids_are_refused() {
        assert!(check_ids(["ARGS-1", "ARGS-1"]).is_err());
        for bad in ["ARGS", "args-1", "ARGS-0", "ARGS-01", "-1", "ARGS-x"] {
            assert!(check_ids([bad]).is_err(), "{bad}");
        }
    }
}
