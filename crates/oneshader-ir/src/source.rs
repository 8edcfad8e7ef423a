//! Source files and byte spans into them.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// Identifies one source file inside a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// The file the range lies in.
    pub file: FileId,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// A span covering `start..end` of `file`.
    #[inline]
    pub fn new(file: FileId, start: u32, end: u32) -> Self {
        Span { file, start, end }
    }

    /// The smallest span covering both `self` and `other` (same file assumed; `self`'s file wins).
    #[inline]
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// The offset of each line's first byte in `text`: 0, then one past each `\n`.
///
/// Eight bytes are tested at a time (a word without a `\n` byte is skipped with a few
/// operations); only a word that holds one is looked at byte by byte.
fn line_starts(text: &str) -> Vec<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const NEWLINES: u64 = ONES * b'\n' as u64;
    let bytes = text.as_bytes();
    let mut starts = Vec::with_capacity(bytes.len() / 32 + 1);
    starts.push(0);
    let mut push_newlines = |base: usize, chunk: &[u8]| {
        for (i, &b) in chunk.iter().enumerate() {
            if b == b'\n' {
                starts.push((base + i + 1) as u32);
            }
        }
    };
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        // Nonzero exactly when some byte of the word is `\n` (it is zero after the xor).
        let x = u64::from_le_bytes(word) ^ NEWLINES;
        if x.wrapping_sub(ONES) & !x & HIGHS != 0 {
            push_newlines(base, chunk);
        }
        base += 8;
    }
    push_newlines(base, chunks.remainder());
    starts
}

/// One loaded source file: its name as the user wrote it and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as given (on the command line, or in an `#include`).
    pub name: String,
    /// The file's full text.
    pub text: String,
    /// Where each line starts, indexed at the first look ([`SourceFile::line_starts`]):
    /// only diagnostics and debug locations need it.
    line_starts: OnceLock<Vec<u32>>,
}

impl SourceFile {
    /// Wraps `text` under `name`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            text: text.into(),
            line_starts: OnceLock::new(),
        }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    pub fn line_column(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        // The last line that starts at or before `offset` (the first starts at 0).
        let line_starts = self.line_starts();
        let line = line_starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1);
        let start = line_starts.get(line).copied().unwrap_or(0) as usize;
        let end = (offset as usize).max(start);
        let column = self
            .text
            .get(start..end)
            .map(|s| s.chars().count())
            .unwrap_or(end - start);
        (line as u32 + 1, column as u32 + 1)
    }

    /// Byte offsets at which each line starts.
    pub fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| line_starts(&self.text))
    }
}

/// Every source file of one compilation, the main file first.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name, text));
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with id `id`, if it exists.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// Records where each line of file `id` starts, as a lexer found them: what
    /// [`SourceFile::line_starts`] would find by reading the text, 0 then one past each
    /// `\n`. Does nothing once the file's line starts are known.
    pub fn set_line_starts(&mut self, id: FileId, starts: Vec<u32>) {
        if let Some(file) = self.files.get(id.0 as usize) {
            debug_assert_eq!(starts, line_starts(&file.text), "{}", file.name);
            let _ = file.line_starts.set(starts);
        }
    }

    /// Finds a file already loaded under `name`.
    pub fn find(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.name == name)
            .map(|i| FileId(i as u32))
    }

    /// All files, in the order they were added.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// File name, 1-based line and column of the start of `span`.
    pub fn location(&self, span: Span) -> Option<(&str, u32, u32)> {
        let file = self.get(span.file)?;
        let (line, column) = file.line_column(span.start);
        Some((&file.name, line, column))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        let f = SourceFile::new("a.hlsl", "ab\ncd\n\nx");
        assert_eq!(f.line_column(0), (1, 1));
        assert_eq!(f.line_column(1), (1, 2));
        assert_eq!(f.line_column(3), (2, 1));
        assert_eq!(f.line_column(7), (4, 1));
    }

    #[test]
    fn line_starts_follow_every_newline() {
        let naive = |text: &str| -> Vec<u32> {
            let newlines = text.bytes().enumerate().filter(|&(_, b)| b == b'\n');
            std::iter::once(0)
                .chain(newlines.map(|(i, _)| i as u32 + 1))
                .collect()
        };
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for length in 0..200 {
            let text: String = (0..length)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    // Newlines, the bytes next to them, and high bytes (a byte of 0x8a
                    // after the xor with newlines) among ordinary text.
                    ['\n', '\x0b', '\t', 'a', 'é', '\u{8a}', ' '][(state % 7) as usize]
                })
                .collect();
            assert_eq!(line_starts(&text), naive(&text), "{text:?}");
        }
    }
}
