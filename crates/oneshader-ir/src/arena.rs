//! Typed arenas: items are stored in a `Vec` and referred to by [`Handle<T>`].

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::num::NonZeroU32;

use crate::source::{FileId, Span};
use crate::FastHashMap;

/// An index into an [`Arena<T>`] or [`UniqueArena<T>`], typed by what it points at.
///
/// It stores the index plus one as a `NonZeroU32`, so that `Option<Handle<T>>` is as
/// small as a handle (4 bytes): the IR has many optional operands.
pub struct Handle<T> {
    index_plus_one: NonZeroU32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// The handle of the item at `index` (an arena holds fewer than `u32::MAX` items).
    #[inline]
    pub const fn from_index(index: usize) -> Self {
        Handle {
            index_plus_one: NonZeroU32::MIN.saturating_add(index as u32),
            marker: PhantomData,
        }
    }

    /// The position of the item in its arena.
    #[inline]
    pub const fn index(self) -> usize {
        (self.index_plus_one.get() - 1) as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index_plus_one == other.index_plus_one
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index_plus_one.cmp(&other.index_plus_one)
    }
}
impl<T> Hash for Handle<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The index as a `u32`, as before the niche: hash maps keyed by handles keep
        // their iteration order.
        (self.index_plus_one.get() - 1).hash(state)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.index())
    }
}

/// A growable store of `T`, each with the source span it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Arena<T> {
    items: Vec<T>,
    spans: Vec<SpanSlot>,
}

/// An item's optional [`Span`] in 12 bytes rather than `Option<Span>`'s 16: a file of
/// `u32::MAX` (never loaded: a source map holds fewer files) stands for no span.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SpanSlot {
    file: u32,
    start: u32,
    end: u32,
}

impl SpanSlot {
    /// The file number that marks an item without a span.
    const NO_FILE: u32 = u32::MAX;

    /// The slot holding `span`.
    #[inline]
    fn new(span: Option<Span>) -> Self {
        match span {
            Some(span) => SpanSlot {
                file: span.file.0,
                start: span.start,
                end: span.end,
            },
            None => SpanSlot {
                file: Self::NO_FILE,
                start: 0,
                end: 0,
            },
        }
    }

    /// The span held, if any.
    #[inline]
    fn get(self) -> Option<Span> {
        (self.file != Self::NO_FILE).then_some(Span::new(FileId(self.file), self.start, self.end))
    }
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena {
            items: Vec::new(),
            spans: Vec::new(),
        }
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Arena::default()
    }

    /// Stores `value` and returns its handle.
    pub fn append(&mut self, value: T, span: Option<Span>) -> Handle<T> {
        self.items.push(value);
        self.spans.push(SpanSlot::new(span));
        Handle::from_index(self.items.len() - 1)
    }

    /// The item behind `handle`, if the handle belongs to this arena.
    pub fn try_get(&self, handle: Handle<T>) -> Option<&T> {
        self.items.get(handle.index())
    }

    /// The item behind `handle`, to change, if the handle belongs to this arena.
    pub fn try_get_mut(&mut self, handle: Handle<T>) -> Option<&mut T> {
        self.items.get_mut(handle.index())
    }

    /// Every item, to change, in insertion order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.items.iter_mut()
    }

    /// The source span recorded for `handle`.
    pub fn span(&self, handle: Handle<T>) -> Option<Span> {
        self.spans.get(handle.index()).and_then(|slot| slot.get())
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Appends a copy of each item of `source` in `range` (nothing if it is out of
    /// range), made by `copy` from the item and this arena as it is so far, with the
    /// item's span.
    pub fn append_copies<U>(
        &mut self,
        source: &Arena<U>,
        range: std::ops::Range<usize>,
        mut copy: impl FnMut(&Self, &U) -> T,
    ) {
        let (Some(items), Some(spans)) = (source.items.get(range.clone()), source.spans.get(range))
        else {
            return;
        };
        self.items.reserve(items.len());
        for item in items {
            let copied = copy(self, item);
            self.items.push(copied);
        }
        self.spans.extend_from_slice(spans);
    }

    /// Appends the items of `source` in `runs` (ascending, disjoint ranges of its
    /// indices), taken by value, with their spans; the items outside them are dropped.
    /// The counterpart of [`Arena::append_copies`] for a source that is no longer
    /// needed, which spares cloning each item and dropping the original.
    pub fn append_runs(&mut self, source: Arena<T>, runs: &[std::ops::Range<usize>]) {
        let Arena { items, spans } = source;
        self.items.reserve(items.len());
        let mut items = items.into_iter();
        let mut at = 0;
        for run in runs {
            let Some(run_spans) = spans.get(run.clone()) else {
                break;
            };
            if let Some(skip) = run.start.checked_sub(at + 1) {
                items.nth(skip);
            }
            self.items.extend(items.by_ref().take(run.len()));
            self.spans.extend_from_slice(run_spans);
            at = run.end;
        }
    }

    /// Rewrites each item from index `start` on in place, in order, given the items
    /// before it.
    pub fn rewrite_from(&mut self, start: usize, mut rewrite: impl FnMut(&[T], &mut T)) {
        for index in start..self.items.len() {
            if let Some((before, [item, ..])) = self.items.split_at_mut_checked(index) {
                rewrite(before, item);
            }
        }
    }

    /// Makes room for at least `additional` more items, so that appending them does not
    /// grow the arena step by step.
    pub fn reserve(&mut self, additional: usize) {
        self.items.reserve(additional);
        self.spans.reserve(additional);
    }

    /// Moves the items, with their spans, into an arena of their exact size, and leaves
    /// this one empty with its capacity: a builder that fills many arenas one after
    /// another grows one buffer once, and each finished arena holds no spare room.
    pub fn take_exact(&mut self) -> Self {
        Arena {
            items: take_exact(&mut self.items),
            spans: take_exact(&mut self.spans),
        }
    }

    /// Frees the capacity reserved beyond the items held (for an arena that is complete).
    pub fn shrink_to_fit(&mut self) {
        self.items.shrink_to_fit();
        self.spans.shrink_to_fit();
    }

    /// Whether the arena holds no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Every item with its handle, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &T)> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, item)| (Handle::from_index(i), item))
    }
}

/// Moves the items of `buffer` into a `Vec` of their exact size (one copy of the whole
/// run), and leaves `buffer` empty with its capacity.
pub fn take_exact<T>(buffer: &mut Vec<T>) -> Vec<T> {
    let mut exact = Vec::with_capacity(buffer.len());
    exact.append(buffer);
    exact
}

/// The items of `spare`, a list kept between uses for its capacity, dropped, and the
/// list taken out to be filled again (put it back when done): reusing a list costs no
/// allocation once it has grown to the size its uses need.
pub fn emptied<T>(spare: &mut Vec<T>) -> Vec<T> {
    let mut list = std::mem::take(spare);
    list.clear();
    list
}

// A handle is made by its arena (`append`, `insert`, `iter`), and the module's arenas only
// grow: indexing an arena with one of its own handles is in range, whatever the input
// was. `try_get` is for handles that may come from elsewhere.
#[allow(
    clippy::indexing_slicing,
    reason = "a handle indexes the arena that made it, which only grows"
)]
impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.items[handle.index()]
    }
}

#[allow(
    clippy::indexing_slicing,
    reason = "a handle indexes the arena that made it, which only grows"
)]
impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, handle: Handle<T>) -> &mut T {
        &mut self.items[handle.index()]
    }
}

/// An arena that stores each distinct value once: inserting an equal value returns the
/// existing handle. Used for types, so that type equality is handle equality.
#[derive(Clone, Debug)]
pub struct UniqueArena<T: Eq + Hash + Clone> {
    items: Vec<T>,
    lookup: FastHashMap<T, Handle<T>>,
}

impl<T: Eq + Hash + Clone> Default for UniqueArena<T> {
    fn default() -> Self {
        UniqueArena {
            items: Vec::new(),
            lookup: FastHashMap::default(),
        }
    }
}

impl<T: Eq + Hash + Clone> UniqueArena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        UniqueArena::default()
    }

    /// An empty arena with room for `capacity` values.
    pub fn with_capacity(capacity: usize) -> Self {
        UniqueArena {
            items: Vec::with_capacity(capacity),
            lookup: FastHashMap::with_capacity_and_hasher(capacity, Default::default()),
        }
    }

    /// The handle of `value`, storing it first if it is new.
    pub fn insert(&mut self, value: T) -> Handle<T> {
        if let Some(&handle) = self.lookup.get(&value) {
            return handle;
        }
        let handle = Handle::from_index(self.items.len());
        self.items.push(value.clone());
        self.lookup.insert(value, handle);
        handle
    }

    /// The item behind `handle`, if it is from this arena.
    #[inline]
    pub fn try_get(&self, handle: Handle<T>) -> Option<&T> {
        self.items.get(handle.index())
    }

    /// The handle of `value` if it is stored.
    pub fn get(&self, value: &T) -> Option<Handle<T>> {
        self.lookup.get(value).copied()
    }

    /// Replaces the item behind `handle` with `value`, keeping the handle, so that
    /// everything referring to `handle` now refers to `value`. When `value` is already
    /// stored under another handle, the two handles hold equal items from then on and
    /// [`UniqueArena::insert`] keeps returning the older one. Returns `false`, changing
    /// nothing, when `handle` is not from this arena.
    pub fn replace(&mut self, handle: Handle<T>, value: T) -> bool {
        let Some(slot) = self.items.get_mut(handle.index()) else {
            return false;
        };
        let old = std::mem::replace(slot, value.clone());
        if self.lookup.get(&old) == Some(&handle) {
            self.lookup.remove(&old);
        }
        self.lookup.entry(value).or_insert(handle);
        true
    }

    /// Number of distinct items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether no item is stored.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Every item with its handle, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &T)> {
        self.items
            .iter()
            .enumerate()
            .map(|(i, item)| (Handle::from_index(i), item))
    }
}

#[allow(
    clippy::indexing_slicing,
    reason = "a handle indexes the arena that made it, which only grows"
)]
impl<T: Eq + Hash + Clone> std::ops::Index<Handle<T>> for UniqueArena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.items[handle.index()]
    }
}

/// A value for each item of an arena, looked up by the item's [`Handle`]: the side tables
/// a writer or an analysis keeps beside a module (names, uses, layouts).
///
/// It is built with one value per item of the arena it describes (`from_arena`, or
/// collected from an iteration over that arena), so every handle of that arena is in
/// range; [`HandleVec::try_get`] is for handles that may not be.
#[derive(Clone, Debug, PartialEq)]
pub struct HandleVec<T, V> {
    values: Vec<V>,
    marker: PhantomData<fn() -> T>,
}

impl<T, V> HandleVec<T, V> {
    /// `value` for each of the `len` items of an arena (`arena.len()`).
    pub fn from_len(len: usize, value: V) -> Self
    where
        V: Clone,
    {
        HandleVec {
            values: vec![value; len],
            marker: PhantomData,
        }
    }

    /// The value for `handle`, if it is in range.
    pub fn try_get(&self, handle: Handle<T>) -> Option<&V> {
        self.values.get(handle.index())
    }

    /// The value for `handle` to change, if it is in range.
    pub fn try_get_mut(&mut self, handle: Handle<T>) -> Option<&mut V> {
        self.values.get_mut(handle.index())
    }

    /// Number of values (the number of items of the arena).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every value with its handle, in the arena's order.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &V)> {
        self.values
            .iter()
            .enumerate()
            .map(|(i, value)| (Handle::from_index(i), value))
    }
}

impl<T, V> FromIterator<V> for HandleVec<T, V> {
    /// The values in the order of the arena's items: collect from `arena.iter().map(..)`.
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        HandleVec {
            values: iter.into_iter().collect(),
            marker: PhantomData,
        }
    }
}

#[allow(
    clippy::indexing_slicing,
    reason = "a side table has a value for every item of its arena"
)]
impl<T, V> std::ops::Index<Handle<T>> for HandleVec<T, V> {
    type Output = V;
    fn index(&self, handle: Handle<T>) -> &V {
        &self.values[handle.index()]
    }
}

#[allow(
    clippy::indexing_slicing,
    reason = "a side table has a value for every item of its arena"
)]
impl<T, V> std::ops::IndexMut<Handle<T>> for HandleVec<T, V> {
    fn index_mut(&mut self, handle: Handle<T>) -> &mut V {
        &mut self.values[handle.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_arena_deduplicates() {
        let mut arena = UniqueArena::new();
        let a = arena.insert("float".to_string());
        let b = arena.insert("uint".to_string());
        assert_ne!(a, b);
        assert_eq!(arena.insert("float".to_string()), a);
        assert_eq!(arena.len(), 2);
    }

    #[test]
    fn unique_arena_replaces_in_place() {
        let mut arena = UniqueArena::new();
        let a = arena.insert("int2x2".to_string());
        let b = arena.insert("int2[2]".to_string());
        assert!(arena.replace(a, "int2[2]".to_string()));
        assert_eq!(arena[a], "int2[2]");
        // The older handle stays the one `insert` finds; the old value is gone.
        assert_eq!(arena.insert("int2[2]".to_string()), b);
        assert_eq!(arena.get(&"int2x2".to_string()), None);
        let c = arena.insert("uint3x3".to_string());
        assert!(arena.replace(c, "uint3[3]".to_string()));
        assert_eq!(arena.get(&"uint3[3]".to_string()), Some(c));
        assert!(!arena.replace(Handle::from_index(9), "none".to_string()));
    }

    #[test]
    fn handle_vec_is_indexed_by_the_arena_handles() {
        let mut arena = Arena::new();
        let a = arena.append("a", None);
        let b = arena.append("b", None);
        let mut lengths: HandleVec<&str, usize> =
            arena.iter().map(|(_, name)| name.len()).collect();
        lengths[b] += 1;
        assert_eq!((lengths[a], lengths[b]), (1, 2));
        assert_eq!(lengths.try_get(Handle::from_index(2)), None);
    }
}
