//! A table of words fixed at compile time, for the backends' reserved words.
//!
//! Every name a text backend declares is checked against its target's reserved words.
//! A hash set of them built on first use costs more than the rest of naming a small
//! shader (about 50,000 instructions for WGSL's 450 words); this table is built by the
//! compiler instead (a `const fn` filling an open-addressing table), so a lookup is one
//! hash of the name and a probe or two, with nothing to build at run time.

/// Words, each with a tag, in an open-addressing table of `SLOTS` slots (a power of two,
/// more than the number of words).
#[derive(Clone, Copy, Debug)]
pub struct WordTable<T: Copy + 'static, const SLOTS: usize> {
    slots: [Option<(&'static str, T)>; SLOTS],
}

/// A word's hash as a [`WordTable`] files it (FNV-1a), made a byte at a time: a caller
/// that reads a name's bytes for its own checks hashes it in the same pass and looks it
/// up with [`WordTable::get_hashed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordHash(u32);

impl WordHash {
    /// The hash of the empty word, where hashing starts.
    pub const START: WordHash = WordHash(0x811c_9dc5);

    /// The hash of the word so far followed by `byte`.
    #[inline]
    pub const fn add(self, byte: u8) -> WordHash {
        WordHash((self.0 ^ byte as u32).wrapping_mul(0x0100_0193))
    }

    /// The hash of `word`.
    pub const fn of(mut word: &[u8]) -> WordHash {
        let mut hash = WordHash::START;
        while let [byte, rest @ ..] = word {
            hash = hash.add(*byte);
            word = rest;
        }
        hash
    }
}

/// Byte equality in a `const fn`.
const fn same(mut a: &[u8], mut b: &[u8]) -> bool {
    loop {
        match (a, b) {
            ([], []) => return true,
            ([x, a_rest @ ..], [y, b_rest @ ..]) if *x == *y => {
                a = a_rest;
                b = b_rest;
            }
            _ => return false,
        }
    }
}

impl<T: Copy + 'static, const SLOTS: usize> WordTable<T, SLOTS> {
    /// The table of every word of `groups`, each tagged with its group's tag; a word in
    /// several groups keeps the tag of the last one. Evaluated at compile time: a table
    /// too small for its words fails the build.
    // Indexing is checked by the compiler here (an index out of range is a compile-time
    // error, never a run-time panic).
    #[allow(clippy::indexing_slicing)]
    pub const fn new(groups: &[(&[&'static str], T)]) -> Self {
        assert!(SLOTS.is_power_of_two(), "SLOTS must be a power of two");
        let mut count = 0;
        let mut g = 0;
        while g < groups.len() {
            count += groups[g].0.len();
            g += 1;
        }
        assert!(count < SLOTS, "more words than slots");
        let mut slots: [Option<(&'static str, T)>; SLOTS] = [None; SLOTS];
        let mut g = 0;
        while g < groups.len() {
            let (words, tag) = groups[g];
            let mut w = 0;
            while w < words.len() {
                let word = words[w];
                let mut i = WordHash::of(word.as_bytes()).0 as usize & (SLOTS - 1);
                loop {
                    match slots[i] {
                        Some((taken, _)) if !same(taken.as_bytes(), word.as_bytes()) => {
                            i = (i + 1) & (SLOTS - 1);
                        }
                        _ => {
                            slots[i] = Some((word, tag));
                            break;
                        }
                    }
                }
                w += 1;
            }
            g += 1;
        }
        WordTable { slots }
    }

    /// The tag of `word`, if the table holds it.
    pub fn get(&self, word: &str) -> Option<T> {
        self.get_hashed(word, WordHash::of(word.as_bytes()))
    }

    /// [`WordTable::get`] for a word whose [`WordHash`] the caller made already.
    pub fn get_hashed(&self, word: &str, hash: WordHash) -> Option<T> {
        let mut i = hash.0 as usize & (SLOTS - 1);
        loop {
            match self.slots.get(i)? {
                Some((taken, tag)) if *taken == word => return Some(*tag),
                Some(_) => i = (i + 1) & (SLOTS - 1),
                None => return None,
            }
        }
    }

    /// Whether the table holds `word`.
    pub fn contains(&self, word: &str) -> bool {
        self.get(word).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLORS: &[&str] = &["red", "green", "blue", "cyan"];
    const SHAPES: &[&str] = &["square", "circle", "cyan"];
    static TABLE: WordTable<u8, 16> = WordTable::new(&[(COLORS, 1), (SHAPES, 2)]);

    #[test]
    fn holds_every_word_with_its_last_tag() {
        for word in ["red", "green", "blue"] {
            assert_eq!(TABLE.get(word), Some(1), "{word}");
        }
        for word in ["square", "circle", "cyan"] {
            assert_eq!(TABLE.get(word), Some(2), "{word}");
        }
        for word in ["", "re", "reds", "Red", "triangle", "cyan "] {
            assert!(!TABLE.contains(word), "{word:?}");
        }
    }

    /// A full table (one free slot) still finds every word and stops on the free slot.
    #[test]
    fn probes_past_collisions() {
        const WORDS: &[&str] = &["a", "b", "c", "d", "e", "f", "g"];
        static FULL: WordTable<(), 8> = WordTable::new(&[(WORDS, ())]);
        for word in WORDS {
            assert!(FULL.contains(word), "{word}");
        }
        assert!(!FULL.contains("h"));
    }

    /// A hash made a byte at a time finds the same words as [`WordTable::get`].
    #[test]
    fn hash_made_byte_by_byte_finds_the_same_words() {
        for word in ["red", "square", "cyan", "", "triangle"] {
            let hash = word.bytes().fold(WordHash::START, WordHash::add);
            assert_eq!(TABLE.get_hashed(word, hash), TABLE.get(word), "{word}");
        }
    }
}
