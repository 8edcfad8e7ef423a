//! Source files and byte spans into them.

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

/// One loaded source file: its name as the user wrote it and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as given (on the command line, or in an `#include`).
    pub name: String,
    /// The file's full text.
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// Wraps `text` under `name`, indexing its line starts.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    pub fn line_column(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        // The last line that starts at or before `offset` (the first starts at 0).
        let line = self
            .line_starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1);
        let start = self.line_starts.get(line).copied().unwrap_or(0) as usize;
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
        &self.line_starts
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
}
