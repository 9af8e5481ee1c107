//! A program made ready on first need ([`Later`]): a folder pack's model
//! is built by a check only when a case needs it (a case blessed before
//! traces and read counts were kept, a `builtin:` checker), so checking a
//! program against a blessed pack never builds the model (a `javac` of
//! the model is a JVM start or two, longer than several cases).

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::target::Target;

/// Makes the program; `None` when it cannot be made (said where it is
/// needed, as a program that could not be made always was).
type Make = dyn Fn() -> Option<Target> + Send + Sync;

/// A program made at most once, by the first caller of [`Later::get`];
/// clones share it.
#[derive(Clone)]
pub struct Later {
    made: Arc<OnceLock<Option<Target>>>,
    make: Arc<Make>,
}

impl Later {
    /// One made by `make` when first needed.
    pub fn new(make: impl Fn() -> Option<Target> + Send + Sync + 'static) -> Self {
        Self {
            made: Arc::new(OnceLock::new()),
            make: Arc::new(make),
        }
    }

    /// One already made (or known not to be).
    pub fn ready(target: Option<Target>) -> Self {
        let made = OnceLock::new();
        let _ = made.set(target);
        Self {
            made: Arc::new(made),
            make: Arc::new(|| None),
        }
    }

    /// The program, made now if it was not yet.
    pub fn get(&self) -> Option<&Target> {
        self.made.get_or_init(|| (self.make)()).as_ref()
    }

    /// Whether it was made (tried) already: a check that needed it.
    pub fn is_made(&self) -> bool {
        self.made.get().is_some()
    }
}

impl Default for Later {
    fn default() -> Self {
        Self::ready(None)
    }
}

impl fmt::Debug for Later {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.made.get() {
            Some(made) => f.debug_tuple("Later").field(made).finish(),
            None => f.write_str("Later(not made)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn it_is_made_once_and_only_when_asked() {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let later = Later::new(|| {
            MADE.fetch_add(1, Ordering::SeqCst);
            Target::command("true").ok()
        });
        let shared = later.clone();
        assert!(!later.is_made());
        assert_eq!(
            MADE.load(Ordering::SeqCst),
            0,
            "not made before it is needed"
        );
        assert!(shared.get().is_some());
        assert!(later.get().is_some());
        assert!(later.is_made());
        assert_eq!(
            MADE.load(Ordering::SeqCst),
            1,
            "made once, shared by clones"
        );
        assert!(Later::ready(None).get().is_none());
    }
}
