//! What the text backends (MSL, WGSL) share: pieces of output text written without the
//! formatting machinery, and the scopes their names are taken in ([`Scope`]).

use std::borrow::Borrow;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::rc::Rc;

mod scope;

use crate::WordHash;

pub use scope::{FunctionLists, Scope};

/// Whether `byte` can stand in an identifier of every text target as it is: an ASCII
/// letter, digit or `_` (one table load, for the namers' check of every name).
#[inline]
fn is_identifier_byte(byte: u8) -> bool {
    IDENTIFIER_BYTES.get(usize::from(byte)) == Some(&true)
}

/// The hash a [`WordTable`](crate::WordTable) looks `name` up with, when every byte of
/// `name` can stand in an identifier of every text target as it is (an ASCII letter,
/// digit or `_`); `None` when some byte can't. One pass over the bytes does both, for the namers' check of every name
/// against their target's reserved words.
#[inline]
pub fn identifier_hash(name: &str) -> Option<WordHash> {
    let mut plain = true;
    let mut hash = WordHash::START;
    for byte in name.bytes() {
        plain &= is_identifier_byte(byte);
        hash = hash.add(byte);
    }
    plain.then_some(hash)
}

/// [`is_identifier_byte`] for every byte.
// Indexing is checked by the compiler here (the table is built at compile time).
#[allow(clippy::indexing_slicing)]
static IDENTIFIER_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || b == b'_';
        byte += 1;
    }
    table
};

/// Writes into `candidate` the first of `base_1`, `base_2`, … that `is_taken` says is
/// free: the name a scope numbers when `base` itself is taken. Each candidate is written
/// over the last one, in `candidate`'s room (the scope keeps it for the next name).
pub fn first_free_numbered(
    candidate: &mut String,
    base: &str,
    mut is_taken: impl FnMut(&str) -> bool,
) {
    candidate.clear();
    candidate.push_str(base);
    candidate.push('_');
    let prefix = candidate.len();
    let mut suffix = 1;
    loop {
        candidate.truncate(prefix);
        push_decimal(candidate, suffix);
        if !is_taken(candidate) {
            return;
        }
        suffix += 1;
    }
}

/// A name a text backend gives something: the IR's own text when that needed no change
/// (nearly every name), else text made for the output.
///
/// Borrowing the IR's text makes naming allocate nothing for a name kept as it is. A
/// name compares and hashes as its text, so a set of names is looked up by `&str`.
#[derive(Clone, Debug)]
pub enum Name<'a> {
    /// Text that outlives the output: the IR's, or a constant.
    Borrowed(&'a str),
    /// Text made for the output (a name renamed), shared by the scope that took it and
    /// the tables that name with it.
    Owned(Rc<str>),
}

impl Name<'_> {
    /// The name's text.
    pub fn as_str(&self) -> &str {
        match self {
            Name::Borrowed(text) => text,
            Name::Owned(text) => text,
        }
    }
}

impl Deref for Name<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name<'_> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Name<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name<'_> {}

impl Hash for Name<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As `str` hashes, which `Borrow<str>` requires.
        self.as_str().hash(state);
    }
}

impl std::fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Default for Name<'_> {
    fn default() -> Self {
        Name::Borrowed("")
    }
}

/// Appends `value` as Rust's `{:?}` writes it: the shortest digits that read back as
/// `value`, with at least one fractional digit (`1.0`, `0.375`, `-2.5`, `1e-7`).
///
/// Shader constants are mostly small integers and halves, quarters, eighths; `{:?}`
/// spends several hundred instructions finding their digits. Those values are written
/// here directly: a multiple of 1/16 below 2^13, or an integer below 2^24, is exact in
/// an `f32` and its decimal expansion is the shortest form (any decimal with fewer
/// digits is further from it than half a unit in its last place), which `{:?}` writes
/// without an exponent. Other values go through the formatter.
#[inline]
pub fn push_f32(out: &mut String, value: f32) {
    let magnitude = value.abs();
    if magnitude < 8192.0 {
        // Below 2^17 sixteenths: a whole number of them converts to `u32` and back
        // exactly (a comparison, where `trunc` is a library call).
        let sixteenths = magnitude * 16.0;
        let whole = sixteenths as u32;
        if whole as f32 == sixteenths {
            if value.is_sign_negative() {
                out.push('-');
            }
            push_decimal(out, u64::from(whole / 16));
            out.push('.');
            match whole % 16 {
                // Whole numbers are the most common constants: a character pushed
                // costs less than copying a one-character string.
                0 => out.push('0'),
                n => out.push_str(SIXTEENTHS.get(n as usize).copied().unwrap_or("0")),
            }
            return;
        }
    } else if magnitude < 16_777_216.0 {
        // An integer below 2^24 converts to `u32` and back exactly.
        let whole = magnitude as u32;
        if whole as f32 == magnitude {
            if value.is_sign_negative() {
                out.push('-');
            }
            push_decimal(out, u64::from(whole));
            out.push_str(".0");
            return;
        }
    }
    let _ = write!(out, "{value:?}");
}

/// The decimal digits of n/16 after the point, by n (n * 625 / 10000 without its trailing
/// zeros, `0` for none).
const SIXTEENTHS: [&str; 16] = [
    "0", "0625", "125", "1875", "25", "3125", "375", "4375", "5", "5625", "625", "6875", "75",
    "8125", "875", "9375",
];

/// Appends the decimal digits of `value` (without the formatting machinery, which costs
/// more than the digits for the `_eN` names the text writers write at nearly every
/// expression).
pub fn push_decimal(out: &mut String, value: u64) {
    // Most numbers written are below 100 (small constants, the first `_eN` names of each
    // function): their digits come from constant divisors, without the search below.
    if value < 10 {
        out.push(char::from(b'0' + value as u8));
        return;
    }
    if value < 100 {
        out.push(char::from(b'0' + (value / 10) as u8));
        out.push(char::from(b'0' + (value % 10) as u8));
        return;
    }
    // Three and four digits (the `_eN` names of long functions) likewise.
    if value < 10_000 {
        if value >= 1000 {
            out.push(char::from(b'0' + (value / 1000) as u8));
        }
        out.push(char::from(b'0' + (value / 100 % 10) as u8));
        out.push(char::from(b'0' + (value / 10 % 10) as u8));
        out.push(char::from(b'0' + (value % 10) as u8));
        return;
    }
    let mut divisor = 1;
    while value / divisor >= 10 {
        divisor *= 10;
    }
    loop {
        out.push(char::from(b'0' + (value / divisor % 10) as u8));
        if divisor == 1 {
            break;
        }
        divisor /= 10;
    }
}

#[cfg(test)]
mod tests {
    use super::{first_free_numbered, push_decimal, push_f32};

    #[test]
    fn numbered_names_take_the_first_free_number() {
        let taken = ["x_1", "x_2", "x_4"];
        let mut candidate = String::from("left over");
        first_free_numbered(&mut candidate, "x", |c| taken.contains(&c));
        assert_eq!(candidate, "x_3");
        first_free_numbered(&mut candidate, "y", |c| taken.contains(&c));
        assert_eq!(candidate, "y_1");
    }

    #[test]
    fn decimals_match_the_formatter() {
        for value in [
            0,
            7,
            9,
            10,
            99,
            100,
            305,
            999,
            1000,
            4096,
            9999,
            10_000,
            4_294_967_295,
            10_000_000_000_000_000_000,
            u64::MAX,
        ] {
            let mut out = String::from("_e");
            push_decimal(&mut out, value);
            assert_eq!(out, format!("_e{value}"));
        }
    }

    fn check(value: f32) {
        let mut out = String::new();
        push_f32(&mut out, value);
        assert_eq!(out, format!("{value:?}"), "bits {:#x}", value.to_bits());
    }

    /// Every sixteenth the fast path writes, each side of zero.
    #[test]
    fn sixteenths_match_the_formatter() {
        for n in 0..8192 * 16 {
            let value = n as f32 / 16.0;
            check(value);
            check(-value);
        }
    }

    #[test]
    fn integers_match_the_formatter() {
        for n in (0..16_777_216u32)
            .step_by(997)
            .chain(16_777_200..16_777_300)
        {
            check(n as f32);
            check(-(n as f32));
        }
    }

    #[test]
    fn other_values_match_the_formatter() {
        for value in [
            0.1,
            1.0 / 3.0,
            1e-7,
            1e-4,
            3.4e38,
            -1.17e-38,
            8191.97,
            8192.5,
            1e16,
            6.02e23,
            0.03125,
        ] {
            check(value);
            check(-value);
        }
    }
}
