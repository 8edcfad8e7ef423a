//! What the function writer knows of each local's value at the point it is writing.

use oneshader_ir::{Handle, LocalVariable};
use rspirv::spirv::Word;

/// The value each local is known to hold, from a store or load that dominates the point
/// being written with no store to the local in between, so that a load can reuse it.
///
/// Branches go back to what was known before them: every change is logged, and
/// [`KnownValues::rewind`] undoes the changes made since a [`KnownValues::mark`]. Going
/// back costs what the branch changed, not what is known: a function that inlining made
/// large knows thousands of locals, and copying them at each `if` was quadratic.
#[derive(Debug, Default)]
pub struct KnownValues {
    /// Indexed by local handle.
    values: Vec<Option<Word>>,
    /// Each change: the local and what it held before.
    undo: Vec<(Handle<LocalVariable>, Option<Word>)>,
}

impl KnownValues {
    /// Knows nothing again, for a function of `locals` locals, keeping the buffers.
    pub fn reset(&mut self, locals: usize) {
        self.values.clear();
        self.values.resize(locals, None);
        self.undo.clear();
        // About two changes a local: growing the log copies it.
        self.undo.reserve(2 * locals);
    }

    /// The value `local` is known to hold.
    pub fn get(&self, local: Handle<LocalVariable>) -> Option<Word> {
        self.values.get(local.index()).copied().flatten()
    }

    /// Records that `local` now holds `value`.
    pub fn set(&mut self, local: Handle<LocalVariable>, value: Word) {
        self.replace(local, Some(value));
    }

    /// Records that what `local` holds is no longer known.
    pub fn forget(&mut self, local: Handle<LocalVariable>) {
        if self.get(local).is_some() {
            self.replace(local, None);
        }
    }

    /// A point to [`KnownValues::rewind`] to.
    pub fn mark(&self) -> usize {
        self.undo.len()
    }

    /// Undoes every change made since `mark`.
    pub fn rewind(&mut self, mark: usize) {
        while self.undo.len() > mark {
            if let Some((local, before)) = self.undo.pop() {
                if let Some(slot) = self.values.get_mut(local.index()) {
                    *slot = before;
                }
            }
        }
    }

    fn replace(&mut self, local: Handle<LocalVariable>, value: Option<Word>) {
        let index = local.index();
        if index >= self.values.len() {
            self.values.resize(index + 1, None);
        }
        if let Some(slot) = self.values.get_mut(index) {
            let before = std::mem::replace(slot, value);
            self.undo.push((local, before));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::KnownValues;
    use oneshader_ir::{Handle, LocalVariable};

    fn local(index: usize) -> Handle<LocalVariable> {
        Handle::from_index(index)
    }

    #[test]
    fn rewinding_restores_what_was_known_at_the_mark() {
        let mut known = KnownValues::default();
        known.reset(3);
        known.set(local(0), 10);
        known.set(local(1), 11);
        let mark = known.mark();
        known.set(local(0), 20);
        known.forget(local(1));
        known.set(local(2), 22);
        assert_eq!(
            [0, 1, 2].map(|i| known.get(local(i))),
            [Some(20), None, Some(22)]
        );
        known.rewind(mark);
        assert_eq!(
            [0, 1, 2].map(|i| known.get(local(i))),
            [Some(10), Some(11), None]
        );
    }
}
