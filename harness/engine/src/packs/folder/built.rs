//! A folder pack's model as the pack holds it: how it is made (its
//! [`Recipe`], from `pack.yaml`'s `model:`) and the one build of a
//! command ([`Built`]), made at once where the model runs (`bless`,
//! `mark`, `diff`) and only when a case needs it at a check.

use std::sync::{Arc, OnceLock};

use super::model::Recipe;
use crate::exec::run::{self, Later, Target};

/// A folder pack's model, built at most once, by the first step of the
/// command that needs it; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Built(Arc<OnceLock<Result<Target, String>>>);

impl Built {
    /// The model `recipe` says, built now if it was not yet.
    pub fn get(&self, recipe: &Recipe) -> Result<Target, String> {
        self.0.get_or_init(|| super::model::prepare(recipe)).clone()
    }

    /// The model `recipe` says, built when a check first runs it (never,
    /// for a pack whose cases keep the model's trace and read counts).
    pub fn later(&self, recipe: Recipe) -> Later {
        let built = self.clone();
        Later::new(move || built.get(&recipe).ok())
    }
}

impl super::FolderPack {
    /// How the pack's `model:` is made: its folder, build and command.
    pub(super) fn recipe(&self) -> Recipe {
        Recipe {
            dir: run::clean(&self.dir.join(self.file.model.dir.as_deref().unwrap_or("."))),
            build: self.file.model.build.as_deref().map(super::expand_shell),
            command: super::expand_words(&self.file.model.command),
            origin: self.origin.clone(),
            left_out: self.left_out.clone(),
        }
    }
}
