//! A suite embedded in a binary at build time: its files as static bytes
//! ([`EmbeddedSuite`]) and the macro a pack declares it with
//! ([`embedded_suite!`](crate::embedded_suite)). The case model reads
//! it ([`crate::model::suite`]); a spec pack hands one over.

/// Declares a pack's suite, `cases/NAME`, as embedded by its build script
/// (`conformance_embed::suite("NAME")`): a static [`EmbeddedSuite`] whose
/// source folder is `cases/NAME` beside the pack crate's folder.
///
/// ```ignore
/// conformance_engine::embedded_suite! {
///     /// The suite, as built from `cases/talk`.
///     pub static SUITE = "talk";
/// }
/// ```
#[macro_export]
macro_rules! embedded_suite {
    ($(#[$meta:meta])* $vis:vis static $ident:ident = $name:literal;) => {
        $(#[$meta])*
        $vis static $ident: $crate::EmbeddedSuite = $crate::EmbeddedSuite {
            files: {
                mod embedded {
                    include!(concat!(env!("OUT_DIR"), "/embedded_suite.rs"));
                }
                embedded::FILES
            },
            source_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/../../cases/", $name),
            display: concat!("cases/", $name),
            at_run_time: false,
            in_pack: "",
        };
    };
}

/// A suite embedded in a binary at build time.
#[derive(Debug)]
pub struct EmbeddedSuite {
    /// Every file of the suite: `/`-separated path and bytes, sorted by path.
    pub files: &'static [(&'static str, &'static [u8])],
    /// The folder the suite was built from (it may be gone at run time).
    pub source_dir: &'static str,
    /// How the folder is named to people (`cases/NAME`).
    pub display: &'static str,
    /// Read from its folder when a folder pack loaded, not embedded at
    /// build time.
    pub at_run_time: bool,
    /// The suite's folder inside its pack's folder, `/`-separated (`tests`;
    /// empty when they are one folder, or for a suite built in): how far a
    /// case's sidecar may climb above the suite ([`crate::model::suite`]).
    /// Sidecars above the suite are kept under `../` paths.
    pub in_pack: &'static str,
}

/// Two embedded suites are the same when they are the same static.
impl PartialEq for EmbeddedSuite {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for EmbeddedSuite {}

impl EmbeddedSuite {
    /// The bytes of one file of the suite.
    pub fn get(&self, rel: &str) -> Option<&'static [u8]> {
        self.files
            .binary_search_by(|(p, _)| (*p).cmp(rel))
            .ok()
            .map(|i| self.files[i].1)
    }
}
