//! [`Table`]: a document-level array as read, and the references into it.

use std::fmt::Display;

use serde_json::Value;

use crate::issue::{Code, Issue, Issues, push_pointer};

/// A document-level array as read: its length in the file and, per file index, what its item
/// gave (a canonical id by default; `None`: left out because of an error, or not representable).
#[derive(Debug, Clone)]
pub struct Table<T = usize> {
    /// `None`: the array itself could not be read, so references to it are not checked.
    len: Option<usize>,
    items: Vec<Option<T>>,
}

/// A file index as a family's schema types it: KHR's `usize`, or OMI's `i64` whose `-1` (the
/// schemas' default) means "none", silently.
pub trait FileIndex: Copy + Display {
    /// Whether the index names an item at all.
    fn given(self) -> bool {
        true
    }
    /// The index as a position, `None` when negative.
    fn position(self) -> Option<usize>;
}

impl FileIndex for usize {
    fn position(self) -> Option<usize> {
        Some(self)
    }
}

impl FileIndex for i64 {
    fn given(self) -> bool {
        self != -1
    }
    fn position(self) -> Option<usize> {
        usize::try_from(self).ok()
    }
}

impl<T> Table<T> {
    /// The array is absent: every reference is out of range.
    pub fn empty() -> Table<T> {
        Table::new(Vec::new())
    }

    /// The array could not be read (an issue says why): references are not checked again.
    pub fn unknown() -> Table<T> {
        Table {
            len: None,
            items: Vec::new(),
        }
    }

    /// A whole array read, one entry per file index.
    pub fn new(items: Vec<Option<T>>) -> Table<T> {
        Table {
            len: Some(items.len()),
            items,
        }
    }

    /// Read each item of `list` (at `pointer/index`) with `read`.
    pub fn read(
        list: &[Value],
        pointer: &str,
        issues: &mut Issues,
        mut read: impl FnMut(&Value, &str, &mut Issues) -> Option<T>,
    ) -> Table<T> {
        Table::new(
            list.iter()
                .enumerate()
                .map(|(i, value)| read(value, &push_pointer(pointer, i), issues))
                .collect(),
        )
    }

    /// `index` checked against the array named `array`: `None` when it names nothing, when the
    /// array is unknown, or (with `INDEX_OUT_OF_RANGE` at `pointer/key`, written only then) when
    /// it is past the end or negative.
    pub fn index<I: FileIndex>(
        &self,
        index: I,
        array: &str,
        (pointer, key): (&str, &str),
        issues: &mut Issues,
    ) -> Option<usize> {
        if !index.given() {
            return None;
        }
        let len = self.len?;
        let position = index.position().filter(|&i| i < len);
        if position.is_none() {
            issues.push(
                Issue::new(Code::IndexOutOfRange, push_pointer(pointer, key))
                    .arg("index", index)
                    .arg("array", array)
                    .arg("length", len),
            );
        }
        position
    }

    /// The item at a checked position (`None`: left out).
    pub fn get(&self, position: usize) -> Option<&T> {
        self.items.get(position).and_then(Option::as_ref)
    }

    /// The item `index` names, through [`Table::index`].
    pub fn resolve<I: FileIndex>(
        &self,
        index: I,
        array: &str,
        at: (&str, &str),
        issues: &mut Issues,
    ) -> Option<&T> {
        self.get(self.index(index, array, at, issues)?)
    }
}
