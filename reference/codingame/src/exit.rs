//! How `cg-referee` ends, below the command line and the arena that both
//! return it.

/// How `cg-referee` ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// A match was judged, a record is consistent, an arena ran.
    Done,
    /// Bad arguments, or a file that cannot be read or written.
    Usage,
    /// `replay` found the record inconsistent with the rules.
    Inconsistent,
}

impl Exit {
    /// The process status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Done => 0,
            Exit::Usage => 2,
            Exit::Inconsistent => 3,
        }
    }
}
