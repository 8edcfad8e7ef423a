//! Typed arenas: items are stored in a `Vec` and referred to by [`Handle<T>`].

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use crate::source::Span;
use crate::FastHashMap;

/// An index into an [`Arena<T>`] or [`UniqueArena<T>`], typed by what it points at.
pub struct Handle<T> {
    index: u32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// The handle of the item at `index`.
    pub const fn from_index(index: usize) -> Self {
        Handle {
            index: index as u32,
            marker: PhantomData,
        }
    }

    /// The position of the item in its arena.
    pub const fn index(self) -> usize {
        self.index as usize
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
        self.index == other.index
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
        self.index.cmp(&other.index)
    }
}
impl<T> Hash for Handle<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.index)
    }
}

/// A growable store of `T`, each with the source span it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Arena<T> {
    items: Vec<T>,
    spans: Vec<Option<Span>>,
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
        self.spans.push(span);
        Handle::from_index(self.items.len() - 1)
    }

    /// The item behind `handle`, if the handle belongs to this arena.
    pub fn try_get(&self, handle: Handle<T>) -> Option<&T> {
        self.items.get(handle.index())
    }

    /// The source span recorded for `handle`.
    pub fn span(&self, handle: Handle<T>) -> Option<Span> {
        self.spans.get(handle.index()).copied().flatten()
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
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

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.items[handle.index()]
    }
}

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

    /// The handle of `value` if it is stored.
    pub fn get(&self, value: &T) -> Option<Handle<T>> {
        self.lookup.get(value).copied()
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

impl<T: Eq + Hash + Clone> std::ops::Index<Handle<T>> for UniqueArena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.items[handle.index()]
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
}
