//! A flat record of one JSON value on its way to canonical text. Every scalar is formatted
//! once, every container knows the length of its one-line text when it closes, and an object
//! whose members did not come in key order records their key order when it closes (items are
//! never moved): writing the text is then one linear pass of copies, whatever the nesting.

use std::cmp::Ordering;

use serde_json::Value;

use super::{INLINE, SHORT_ARRAY};

/// `Open::order` of an object whose members are in key order where they are.
const IN_PLACE: usize = usize::MAX;

/// One entry of a tape, in document order (a container before its members).
#[derive(Clone, Copy, Debug)]
pub(super) enum Item {
    /// A scalar's JSON text: `text[start..start + len]`.
    Scalar { start: usize, len: usize },
    /// An object key: its raw text `text[raw..raw + raw_len]` (what members are sorted by;
    /// `prefix`: its first 8 bytes, big-endian, zero-padded, to compare most keys at once) and
    /// its JSON text `text[json..json + len]`.
    Key {
        raw: usize,
        raw_len: usize,
        json: usize,
        len: usize,
        prefix: u64,
    },

    /// An array or object of `count` members (an object member is a key and a value), `size`
    /// items long (itself included), whose one-line text is `len` bytes long. `scalars`: an
    /// array whose items are all scalars. `order`: where the key items of an object's members
    /// are listed in key order in `Tape::order` ([`IN_PLACE`]: the members are in key order).
    Open {
        object: bool,
        scalars: bool,
        count: usize,
        size: usize,
        len: usize,
        order: usize,
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
    items: Vec<Item>,
    pub(super) text: Vec<u8>,
    /// Key items of the members of objects recorded out of key order, in key order.
    order: Vec<usize>,
    /// Scratch of `close`: (key prefix, key item) of the members of the object being closed.
    members: Vec<(u64, usize)>,
}

/// A position on a tape, to come back to when a value cannot be recorded.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    items: usize,
    text: usize,
    order: usize,
}

/// The first 8 bytes of `key`, big-endian, zero-padded: comparing prefixes compares keys
/// unless the prefixes are equal.
fn prefix(key: &[u8]) -> u64 {
    if let Some(head) = key.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    // Shifted in a register: a byte copy into an array compiles to a memcpy call whose bytes
    // the 8-byte load then waits for (perf annotate put most of `key`'s samples there).
    (0..8).fold(0u64, |p, i| {
        (p << 8) | u64::from(key.get(i).copied().unwrap_or(0))
    })
}

/// Append `text[start..start + len]` to `out`. Scalars and keys are short: one fixed 16-byte
/// copy (then the length cut back) instead of a copy of variable length where the text
/// allows it.
fn put(out: &mut Vec<u8>, text: &[u8], start: usize, len: usize) {
    if len <= 16
        && let Some(chunk) = text.get(start..).and_then(|t| t.first_chunk::<16>())
    {
        let at = out.len();
        out.extend_from_slice(chunk);
        out.truncate(at + len);
        return;
    }
    out.extend_from_slice(&text[start..start + len]);
}

impl Tape {
    pub fn new() -> Tape {
        Tape::default()
    }

    /// Forget the value, keep the buffers.
    pub fn clear(&mut self) {
        self.items.clear();
        self.text.clear();
        self.order.clear();
    }

    pub(super) fn mark(&self) -> Mark {
        Mark {
            items: self.items.len(),
            text: self.text.len(),
            order: self.order.len(),
        }
    }

    pub(super) fn rewind(&mut self, mark: Mark) {
        self.items.truncate(mark.items);
        self.text.truncate(mark.text);
        self.order.truncate(mark.order);
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
        let at = self.text.len();
        let item = if super::plain(key) {
            // The JSON text is the raw text quoted: one copy serves both.
            self.text.push(b'"');
            self.text.extend_from_slice(key.as_bytes());
            self.text.push(b'"');
            Item::Key {
                raw: at + 1,
                raw_len: key.len(),
                json: at,
                len: key.len() + 2,
                prefix: prefix(key.as_bytes()),
            }
        } else {
            self.text.extend_from_slice(key.as_bytes());
            let json = self.text.len();
            super::write_str(key, &mut self.text);
            Item::Key {
                raw: at,
                raw_len: key.len(),
                json,
                len: self.text.len() - json,
                prefix: prefix(key.as_bytes()),
            }
        };
        self.items.push(item);
    }

    /// Open an array or object; its members follow until [`Tape::close`] of the returned index.
    pub(super) fn open(&mut self, object: bool) -> usize {
        self.items.push(Item::Open {
            object,
            scalars: true,
            count: 0,
            size: 0,
            len: 0,
            order: IN_PLACE,
        });
        self.items.len() - 1
    }

    /// The raw text and prefix of the key at item `i`.
    fn key_of(&self, i: usize) -> (u64, &[u8]) {
        match self.items[i] {
            Item::Key {
                raw,
                raw_len,
                prefix,
                ..
            } => (prefix, &self.text[raw..raw + raw_len]),
            _ => (0, &[]),
        }
    }

    /// The order of the keys at items `a` and `b` (byte order of their raw text), whose
    /// prefixes are `pa` and `pb`.
    fn compare_keys(&self, (pa, a): (u64, usize), (pb, b): (u64, usize)) -> Ordering {
        pa.cmp(&pb)
            .then_with(|| self.key_of(a).1.cmp(self.key_of(b).1))
    }

    /// Close the container opened at `at`: record its member count, size and one-line
    /// length, and the key order of an object's members when they came out of order (a
    /// repeated key keeps its last value, as a `serde_json::Map` does).
    pub(super) fn close(&mut self, at: usize) {
        let Item::Open { object, .. } = self.items[at] else {
            return; // only containers are opened
        };
        let end = self.items.len();
        let size = end - at;
        if !object {
            let (mut count, mut len, mut scalars) = (0usize, 2usize, true);
            let mut i = at + 1;
            while i < end {
                let item = self.items[i];
                scalars &= !matches!(item, Item::Open { .. });
                len += item.len() + if count > 0 { 2 } else { 0 }; // ", "
                i += item.size();
                count += 1;
            }
            self.items[at] = Item::Open {
                object,
                scalars,
                count,
                size,
                len,
                order: IN_PLACE,
            };
            return;
        }
        let mut members = std::mem::take(&mut self.members);
        members.clear();
        let mut ordered = true;
        let mut i = at + 1;
        while i + 1 < end {
            let member = (self.key_of(i).0, i);
            if let Some(&last) = members.last() {
                ordered &= self.compare_keys(last, member) == Ordering::Less;
            }
            members.push(member);
            i += 1 + self.items[i + 1].size();
        }
        let order = if ordered {
            IN_PLACE
        } else {
            members.sort_by(|&a, &b| self.compare_keys(a, b));
            let start = self.order.len();
            for n in 0..members.len() {
                let repeated = members
                    .get(n + 1)
                    .is_some_and(|&next| self.compare_keys(next, members[n]).is_eq());
                if !repeated {
                    self.order.push(members[n].1);
                }
            }
            start
        };
        let count = if ordered {
            members.len()
        } else {
            self.order.len() - order
        };
        let len = if ordered {
            self.object_len(members.iter().map(|m| m.1))
        } else {
            self.object_len(self.order[order..].iter().copied())
        };
        self.members = members;
        self.items[at] = Item::Open {
            object,
            scalars: false,
            count,
            size,
            len,
            order,
        };
    }

    /// Length of the one-line text of an object whose members have the key items `keys`:
    /// `{`, `key: value` for each, `, ` between them, `}`.
    fn object_len(&self, keys: impl Iterator<Item = usize>) -> usize {
        let mut len = 2;
        for (n, key) in keys.enumerate() {
            len += self.items[key].len() + 2 + self.items[key + 1].len();
            if n > 0 {
                len += 2;
            }
        }
        len
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

    /// Append the JSON text of a scalar or key to `out`.
    fn put_json(&self, item: Item, out: &mut Vec<u8>) {
        match item {
            Item::Scalar { start, len }
            | Item::Key {
                json: start, len, ..
            } => put(out, &self.text, start, len),
            Item::Open { .. } => {}
        }
    }

    /// The item of the `n`th member of the container at `at` (its key for an object), the
    /// members being walked in order from `cursor` (the item after the previous member).
    fn nth_member(&self, order: usize, n: usize, cursor: usize) -> usize {
        if order == IN_PLACE {
            cursor
        } else {
            self.order[order + n]
        }
    }

    /// Write the item at `i` at `indent`; returns the index after its subtree.
    fn write(&self, i: usize, indent: usize, out: &mut Vec<u8>) -> usize {
        let Item::Open {
            object,
            scalars,
            count,
            size,
            len,
            order,
        } = self.items[i]
        else {
            self.put_json(self.items[i], out);
            return i + 1;
        };
        // Short containers stay on one line, and so do short arrays of scalars (vectors,
        // quaternions, index lists) whatever their length.
        let short_array = !object && scalars && count <= SHORT_ARRAY;
        if len <= INLINE || short_array {
            return self.write_inline(i, out);
        }
        out.extend_from_slice(if object { b"{\n" } else { b"[\n" });
        let mut cursor = i + 1;
        for n in 0..count {
            pad(indent + 1, out);
            let mut j = self.nth_member(order, n, cursor);
            if object {
                self.put_json(self.items[j], out);
                out.extend_from_slice(b": ");
                j += 1;
            }
            cursor = self.write(j, indent + 1, out);
            if n + 1 < count {
                out.push(b',');
            }
            out.push(b'\n');
        }
        pad(indent, out);
        out.push(if object { b'}' } else { b']' });
        i + size
    }

    /// Write the item at `i` on one line; returns the index after its subtree.
    fn write_inline(&self, i: usize, out: &mut Vec<u8>) -> usize {
        let Item::Open {
            object,
            count,
            size,
            order,
            ..
        } = self.items[i]
        else {
            self.put_json(self.items[i], out);
            return i + 1;
        };
        out.push(if object { b'{' } else { b'[' });
        let mut cursor = i + 1;
        for n in 0..count {
            if n > 0 {
                out.extend_from_slice(b", ");
            }
            let mut j = self.nth_member(order, n, cursor);
            if object {
                self.put_json(self.items[j], out);
                out.extend_from_slice(b": ");
                j += 1;
            }
            cursor = self.write_inline(j, out);
        }
        out.push(if object { b'}' } else { b']' });
        i + size
    }
}

fn pad(indent: usize, out: &mut Vec<u8>) {
    for _ in 0..indent {
        out.extend_from_slice(b"  ");
    }
}
