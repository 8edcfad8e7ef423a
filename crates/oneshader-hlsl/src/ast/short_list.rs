//! [`ShortList`]: a list of syntax nodes that is nearly always one long.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// A list of syntax nodes that is nearly always one long (a declaration's names, a
/// call's arguments), read as a slice.
///
/// A single node is held in place, so the common case costs no allocation of its own;
/// none or several are held on the heap (none costs nothing).
#[derive(Clone, PartialEq)]
pub enum ShortList<T> {
    /// Exactly one node.
    One(T),
    /// Any other number of nodes.
    Many(Box<[T]>),
}

impl<T> Default for ShortList<T> {
    /// The empty list.
    fn default() -> Self {
        ShortList::Many(Box::default())
    }
}

impl<T> FromIterator<T> for ShortList<T> {
    /// One node in place; any other number on the heap.
    #[inline]
    fn from_iter<I: IntoIterator<Item = T>>(nodes: I) -> Self {
        let mut nodes = nodes.into_iter();
        let Some(first) = nodes.next() else {
            return ShortList::default();
        };
        let Some(second) = nodes.next() else {
            return ShortList::One(first);
        };
        let mut many = Vec::with_capacity(nodes.size_hint().0 + 2);
        many.push(first);
        many.push(second);
        many.extend(nodes);
        ShortList::Many(many.into_boxed_slice())
    }
}

impl<T> Deref for ShortList<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            ShortList::One(node) => std::slice::from_ref(node),
            ShortList::Many(nodes) => nodes,
        }
    }
}

impl<T> DerefMut for ShortList<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            ShortList::One(node) => std::slice::from_mut(node),
            ShortList::Many(nodes) => nodes,
        }
    }
}

impl<'a, T> IntoIterator for &'a ShortList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: fmt::Debug> fmt::Debug for ShortList<T> {
    /// As the slice it holds, however it is held.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::ShortList;

    #[test]
    fn reads_as_the_slice_it_was_built_from() {
        for nodes in [vec![], vec![1], vec![1, 2, 3]] {
            let list: ShortList<_> = nodes.iter().copied().collect();
            assert_eq!(&list[..], &nodes[..]);
            assert_eq!(format!("{list:?}"), format!("{nodes:?}"));
        }
        assert!(matches!(std::iter::once(7).collect(), ShortList::One(7)));
    }
}
