//! The undelete of one entry ([`Undo::undelete`]): the object created again
//! ([`super::create`]), then — for a namespace or CRD — the objects journaled with it
//! ([`super::container`]).

use super::UndeleteError;
use super::create::{Renamed, Undo, Wording};
use crate::changelog::{Entry, Operation};
use crate::output::Printer;

impl Undo<'_> {
    /// Undeletes entry `e` (its last record): checks it ([`super::check_entry`]), resolves
    /// its object, creates it again ([`Undo::recreate`]); for a namespace or CRD, then its
    /// journaled objects ([`super::container::restore_children`]).
    ///
    /// # Errors
    /// [`UndeleteError`]: refusals (2, 5), the guarded path's (3, 1), an incomplete container.
    pub async fn undelete(&self, e: &Entry, p: &mut Printer<'_>) -> Result<(), UndeleteError> {
        let refuse = |why: String| UndeleteError::Refused {
            id: e.id.clone(),
            why,
        };
        let object = super::check_entry(self.latest, self.contradicted, e).map_err(refuse)?;
        let obj = self.resolve(e).await?;
        let mut renamed = Renamed::new();
        self.recreate(&obj, e, object, Wording::of(e), &mut renamed, p)
            .await?;
        if e.operation == Operation::Delete && super::is_container(&obj) {
            super::container::restore_children(self, &obj, e, renamed, p).await?;
        }
        Ok(())
    }
}
