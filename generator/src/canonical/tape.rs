//! A flat record of one JSON value on its way to canonical text. Every scalar is formatted
//! once, every container knows the length of its one-line text when it closes, and object
//! members are put in key order as the object closes: writing the text is then one linear
//! pass of copies, whatever the nesting.

use serde_json::Value;

use super::{INLINE, SHORT_ARRAY};

/// One entry of a tape, in document order (a container before its members).
#[derive(Clone, Copy, Debug)]
pub(super) enum Item {
    /// A scalar's JSON text: `text[start..start + len]`.
    Scalar { start: usize, len: usize },
    /// An object key: its raw text `text[raw..raw + raw_len]` (what members are sorted by),
    /// followed by its JSON text (`len` bytes).
    Key {
        raw: usize,
        raw_len: usize,
        len: usize,
    },
    /// An array or object of `count` members (an object member is a key and a value), `size`
    /// items long (itself included), whose one-line text is `len` bytes long. `scalars`: an
    /// array whose items are all scalars.
    Open {
        object: bool,
        scalars: bool,
        count: usize,
        size: usize,
        len: usize,
    },
}

impl Item {
    /// Length of the item's one-line text.
    fn len(&self) -> usize {
        match *self {
            Item::Scalar { len, .. } | Item::Key { len, .. } | Item::Open { len, .. } => len,
        }
    }

    /// Items in the subtree the item starts.
    fn size(&self) -> usize {
        match *self {
            Item::Open { size, .. } => size,
            _ => 1,
        }
    }
}

/// One JSON value as a tape (reusable: [`Tape::clear`] keeps the buffers).
#[derive(Debug, Default)]
pub struct Tape {
    pub(super) items: Vec<Item>,
    pub(super) text: Vec<u8>,
    /// Scratch of `close`: (key item, end of its value) of the object being closed.
    members: Vec<(usize, usize)>,
    /// Scratch of `close`: the members of an object being put in key order.
    moved: Vec<Item>,
}

/// A position on a tape, to come back to when a value cannot be recorded.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    items: usize,
    text: usize,
}

impl Tape {
    pub fn new() -> Tape {
        Tape::default()
    }

    /// Forget the value, keep the buffers.
    pub fn clear(&mut self) {
        self.items.clear();
        self.text.clear();
    }

    pub(super) fn mark(&self) -> Mark {
        Mark {
            items: self.items.len(),
            text: self.text.len(),
        }
    }

    pub(super) fn rewind(&mut self, mark: Mark) {
        self.items.truncate(mark.items);
        self.text.truncate(mark.text);
    }

    /// Record a scalar whose JSON text `write` appends to the text buffer.
    pub(super) fn scalar(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        let start = self.text.len();
        write(&mut self.text);
        let len = self.text.len() - start;
        self.items.push(Item::Scalar { start, len });
    }

    /// Record an object key.
    pub(super) fn key(&mut self, key: &str) {
        let raw = self.text.len();
        self.text.extend_from_slice(key.as_bytes());
        let start = self.text.len();
        super::write_str(key, &mut self.text);
        let len = self.text.len() - start;
        self.items.push(Item::Key {
            raw,
            raw_len: key.len(),
            len,
        });
    }

    /// Open an array or object; its members follow until [`Tape::close`] of the returned index.
    pub(super) fn open(&mut self, object: bool) -> usize {
        self.items.push(Item::Open {
            object,
            scalars: true,
            count: 0,
            size: 0,
            len: 0,
        });
        self.items.len() - 1
    }

    fn raw_key(&self, item: usize) -> &[u8] {
        match self.items[item] {
            Item::Key { raw, raw_len, .. } => &self.text[raw..raw + raw_len],
            _ => &[],
        }
    }

    /// Close the container opened at `at`: put an object's members in key order (a repeated
    /// key keeps its last value, as a `serde_json::Map` does) and record the container's size,
    /// member count and one-line length.
    pub(super) fn close(&mut self, at: usize) {
        let Item::Open { object, .. } = self.items[at] else {
            return; // only containers are opened
        };
        if object {
            self.order_members(at);
        }
        let end = self.items.len();
        let (mut count, mut len, mut scalars) = (0usize, 2usize, true);
        let mut i = at + 1;
        while i < end {
            if count > 0 {
                len = len.saturating_add(2); // ", "
            }
            if object {
                len = len.saturating_add(self.items[i].len()).saturating_add(2); // key ": "
                i += 1;
            }
            let item = self.items[i];
            scalars &= !matches!(item, Item::Open { .. });
            len = len.saturating_add(item.len());
            i += item.size();
            count += 1;
        }
        self.items[at] = Item::Open {
            object,
            scalars,
            count,
            size: end - at,
            len,
        };
    }

    /// Sort the members of the object opened at `at` by key (stable), keeping the last of
    /// equal keys. Members written in key order (every `serde_json::Map`) are left alone.
    fn order_members(&mut self, at: usize) {
        let end = self.items.len();
        let mut members = std::mem::take(&mut self.members);
        members.clear();
        let mut i = at + 1;
        let mut ordered = true;
        while i + 1 < end {
            let value_end = i + 1 + self.items[i + 1].size();
            if let Some(&(last, _)) = members.last() {
                ordered &= self.raw_key(last) < self.raw_key(i);
            }
            members.push((i, value_end));
            i = value_end;
        }
        if !ordered {
            members.sort_by(|a, b| self.raw_key(a.0).cmp(self.raw_key(b.0)));
            let mut moved = std::mem::take(&mut self.moved);
            moved.clear();
            for (n, &(key, value_end)) in members.iter().enumerate() {
                let repeated = members
                    .get(n + 1)
                    .is_some_and(|next| self.raw_key(next.0) == self.raw_key(key));
                if !repeated {
                    moved.extend_from_slice(&self.items[key..value_end]);
                }
            }
            self.items.truncate(at + 1);
            self.items.extend_from_slice(&moved);
            self.moved = moved;
        }
        self.members = members;
    }

    /// Record a `serde_json` value (its maps are in key order, or put in key order here).
    pub(super) fn value(&mut self, value: &Value) {
        match value {
            Value::Object(map) => {
                let at = self.open(true);
                for (k, v) in map {
                    self.key(k);
                    self.value(v);
                }
                self.close(at);
            }
            Value::Array(items) => {
                let at = self.open(false);
                for v in items {
                    self.value(v);
                }
                self.close(at);
            }
            Value::String(s) => self.scalar(|t| super::write_str(s, t)),
            // Numbers, booleans and null as serde_json writes them.
            other => self.scalar(|t| super::write_scalar(other, t)),
        }
    }

    /// Append the canonical text of the recorded value (and a final newline) to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        if self.items.is_empty() {
            return;
        }
        self.write(0, 0, out);
        out.push(b'\n');
    }

    /// The JSON text of a scalar or key.
    fn json(&self, item: Item) -> &[u8] {
        match item {
            Item::Scalar { start, len } => &self.text[start..start + len],
            Item::Key { raw, raw_len, len } => &self.text[raw + raw_len..raw + raw_len + len],
            Item::Open { .. } => &[],
        }
    }

    /// Write the item at `i` at `indent`; returns the index after its subtree.
    fn write(&self, i: usize, indent: usize, out: &mut Vec<u8>) -> usize {
        match self.items[i] {
            item @ (Item::Scalar { .. } | Item::Key { .. }) => {
                out.extend_from_slice(self.json(item));
                i + 1
            }
            Item::Open {
                object,
                scalars,
                count,
                size,
                len,
            } => {
                // Short containers stay on one line, and so do short arrays of scalars
                // (vectors, quaternions, index lists) whatever their length.
                let short_array = !object && scalars && count <= SHORT_ARRAY;
                if len <= INLINE || short_array {
                    return self.write_inline(i, out);
                }
                out.extend_from_slice(if object { b"{\n" } else { b"[\n" });
                let mut j = i + 1;
                for m in 0..count {
                    pad(indent + 1, out);
                    if object {
                        j = self.write(j, indent + 1, out);
                        out.extend_from_slice(b": ");
                    }
                    j = self.write(j, indent + 1, out);
                    if m + 1 < count {
                        out.push(b',');
                    }
                    out.push(b'\n');
                }
                pad(indent, out);
                out.push(if object { b'}' } else { b']' });
                i + size
            }
        }
    }

    /// Write the item at `i` on one line; returns the index after its subtree.
    fn write_inline(&self, i: usize, out: &mut Vec<u8>) -> usize {
        match self.items[i] {
            item @ (Item::Scalar { .. } | Item::Key { .. }) => {
                out.extend_from_slice(self.json(item));
                i + 1
            }
            Item::Open {
                object,
                count,
                size,
                ..
            } => {
                out.push(if object { b'{' } else { b'[' });
                let mut j = i + 1;
                for m in 0..count {
                    if m > 0 {
                        out.extend_from_slice(b", ");
                    }
                    if object {
                        j = self.write_inline(j, out);
                        out.extend_from_slice(b": ");
                    }
                    j = self.write_inline(j, out);
                }
                out.push(if object { b'}' } else { b']' });
                i + size
            }
        }
    }
}

fn pad(indent: usize, out: &mut Vec<u8>) {
    for _ in 0..indent {
        out.extend_from_slice(b"  ");
    }
}
