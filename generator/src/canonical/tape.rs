//! A record of one JSON value on its way to canonical text, built in one-line form as the
//! value comes: separators are written as members arrive, so a container's one-line text is
//! the contiguous text from its opening bracket, and its length is known when it closes.
//! A container that stays on one line is then finished at once (its members put in key order
//! if they came out of order, a repeated key keeping its last value) and kept as one piece of
//! text; only the containers written one member per line keep their members as items, with
//! their key order when it differs from the order they came in. Writing the text is then one
//! pass over the few remaining items, each a copy.

use std::cmp::Ordering;

use serde_json::Value;

use super::{INLINE, SHORT_ARRAY};

/// `Item::Open::order` of an object whose members are in key order where they are.
const IN_PLACE: u32 = u32::MAX;

/// A position or length on a tape. Items hold them as `u32` (an item is 20 bytes, not 56:
/// the tape of a case's expectation has thousands of items, and the smaller ones made a whole
/// valid case about 3% faster), so a tape holds less than 4 GiB of text and 4 Gi items. The
/// generator's documents are far smaller (a file is at most `MAX_FILE_SIZE`, 512 MiB). A tape
/// that outgrew that is a bug in the program, never input: it stops rather than write wrong
/// text (a saturated position would also read as [`IN_PLACE`]).
fn pos(n: usize) -> u32 {
    match u32::try_from(n) {
        Ok(p) if p != IN_PLACE => p,
        _ => panic!("a canonical tape outgrew 4 GiB ({n})"),
    }
}

/// One entry of a tape, in document order (a container before its members).
#[derive(Clone, Copy, Debug)]
pub(super) enum Item {
    /// Finished one-line text `text[start..start + len]`: a scalar, or a container that stays
    /// on one line.
    Text { start: u32, len: u32 },
    /// An object key: its JSON text `text[start..start + len]`; what members are sorted by is
    /// its raw text, the JSON text without its quotes when the key needs no escape (`escaped`
    /// false), else `raw_keys[raw..raw + raw_len]` (its first 8 bytes, [`prefix`], compare
    /// most keys at once).
    Key {
        start: u32,
        len: u32,
        escaped: bool,
        raw: u32,
        raw_len: u32,
    },
    /// A container written one member per line: `count` members (an object member is a key
    /// and a value), `size` items long (itself included). `order`: where the key items of an
    /// object's members are listed in key order in `Tape::order` ([`IN_PLACE`]: the members
    /// are in key order).
    Open {
        object: bool,
        count: u32,
        size: u32,
        order: u32,
    },
}

impl Item {
    /// Items in the subtree the item starts.
    fn size(&self) -> usize {
        match *self {
            Item::Open { size, .. } => size as usize,
            _ => 1,
        }
    }

    /// Length of the one-line text of a key or of finished text.
    fn len(&self) -> usize {
        match *self {
            Item::Text { len, .. } | Item::Key { len, .. } => len as usize,
            Item::Open { .. } => 0,
        }
    }
}

/// A container being recorded.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Its `Item::Open`.
    at: usize,
    /// Where its opening bracket is in `Tape::text`.
    start: usize,
    object: bool,
    /// Members so far.
    count: usize,
    /// No member is a container.
    scalars: bool,
    /// A member is written one member per line (so is this container then).
    expanded: bool,
    /// The keys so far came in strictly increasing order.
    ordered: bool,
    /// The item of the last key, and its prefix.
    last_key: usize,
    last_prefix: u64,
}

/// One JSON value as a tape (reusable: [`Tape::clear`] keeps the buffers).
#[derive(Debug, Default)]
pub struct Tape {
    items: Vec<Item>,
    pub(super) text: Vec<u8>,
    /// Raw text of the keys that need escapes.
    raw_keys: Vec<u8>,
    /// Key items of the members of expanded objects recorded out of key order, in key order.
    order: Vec<usize>,
    /// Open containers, innermost last.
    stack: Vec<Frame>,
    /// Scratch of `close`: (key prefix, key item) of the members of the object being closed.
    members: Vec<(u64, usize)>,
    /// Scratch of `close`: the sorted one-line text of an object.
    scratch: Vec<u8>,
    /// Facts about the `'static` keys recorded so far.
    static_keys: KeyCache,
}

/// What [`Tape::key`] computes about a key (its [`prefix`], whether it needs no escape),
/// remembered for `'static` keys by address and length: a `'static` string never changes,
/// so the same address and length always hold the same text. Direct-mapped: a key whose slot
/// holds another key is computed again and takes the slot.
#[derive(Debug, Default)]
struct KeyCache {
    /// Empty until the first `'static` key (a tape that records none allocates nothing).
    slots: Vec<CachedKey>,
}

/// Bytes of a cached key's text `, "key": `, padded: keys of up to `KEY_TEXT - 8` bytes.
const KEY_TEXT: usize = 32;

#[derive(Clone, Copy, Debug)]
struct CachedKey {
    /// Address of the key's first byte (0: empty slot; a key's address is never 0).
    addr: usize,
    len: usize,
    prefix: u64,
    plain: bool,
    /// `text` holds `, "key": ` (the key is plain and at most `KEY_TEXT - 8` bytes long).
    quoted: bool,
    text: [u8; KEY_TEXT],
}

impl Default for CachedKey {
    fn default() -> CachedKey {
        CachedKey {
            addr: 0,
            len: 0,
            prefix: 0,
            plain: false,
            quoted: false,
            text: [b' '; KEY_TEXT],
        }
    }
}

impl CachedKey {
    fn of(key: &str) -> CachedKey {
        let plain = super::plain(key);
        let mut c = CachedKey {
            addr: key.as_ptr() as usize,
            len: key.len(),
            prefix: prefix(key.as_bytes()),
            plain,
            quoted: plain && key.len() <= KEY_TEXT - 8,
            text: [b' '; KEY_TEXT],
        };
        if c.quoted {
            let n = key.len();
            c.text[..3].copy_from_slice(b", \"");
            c.text[3..3 + n].copy_from_slice(key.as_bytes());
            c.text[3 + n..6 + n].copy_from_slice(b"\": ");
        }
        c
    }
}

impl KeyCache {
    /// Slots (a power of two): the reference's expectation has about a hundred field names.
    const SLOTS: usize = 256;

    /// The slot that holds the facts of `key` (computed now if it holds another key's).
    fn slot(&mut self, key: &'static str) -> usize {
        let addr = key.as_ptr() as usize;
        // Fibonacci hashing of the address: its high bits pick the slot.
        let slot = (addr.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (usize::BITS - 8)) % Self::SLOTS;
        if self.slots.len() != Self::SLOTS {
            self.slots = vec![CachedKey::default(); Self::SLOTS];
        }
        let c = &mut self.slots[slot];
        if c.addr != addr || c.len != key.len() {
            *c = CachedKey::of(key);
        }
        slot
    }

    /// The facts of `key`.
    #[cfg(test)]
    fn facts(&mut self, key: &'static str) -> &CachedKey {
        let slot = self.slot(key);
        &self.slots[slot]
    }
}

/// A position on a tape, to come back to when a value cannot be recorded.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    items: usize,
    text: usize,
    raw_keys: usize,
    order: usize,
    stack: usize,
    top: Option<Frame>,
}

/// The first 8 bytes of `key`, big-endian, zero-padded: comparing prefixes compares keys
/// unless the prefixes are equal.
fn prefix(key: &[u8]) -> u64 {
    if let Some(head) = key.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    // Shifted in a register: a byte copy into an array compiles to a memcpy call whose bytes
    // the 8-byte load then waits for.
    (0..8).fold(0u64, |p, i| {
        (p << 8) | u64::from(key.get(i).copied().unwrap_or(0))
    })
}

/// Bytes of the fixed copy of [`put`] for a scalar or a key (larger fixed copies measured
/// slower).
const PIECE_COPY: usize = 16;
/// Bytes of the fixed copy of [`put`] for the text of a whole member, `"key": value`.
const MEMBER_COPY: usize = 32;

/// Append `text[start..start + len]` to `out`. Pieces are short: one fixed copy of `N` bytes
/// (then the length cut back) instead of a copy of variable length where the text allows it.
fn put<const N: usize>(out: &mut Vec<u8>, text: &[u8], start: usize, len: usize) {
    if len <= N
        && let Some(chunk) = text.get(start..).and_then(|t| t.first_chunk::<N>())
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
        self.raw_keys.clear();
        self.order.clear();
        self.stack.clear();
    }

    pub(super) fn mark(&self) -> Mark {
        Mark {
            items: self.items.len(),
            text: self.text.len(),
            raw_keys: self.raw_keys.len(),
            order: self.order.len(),
            stack: self.stack.len(),
            top: self.stack.last().copied(),
        }
    }

    pub(super) fn rewind(&mut self, mark: Mark) {
        self.items.truncate(mark.items);
        self.text.truncate(mark.text);
        self.raw_keys.truncate(mark.raw_keys);
        self.order.truncate(mark.order);
        self.stack.truncate(mark.stack);
        if let (Some(top), Some(frame)) = (mark.top, self.stack.last_mut()) {
            *frame = top;
        }
    }

    /// Start a value: in an array, count it and separate it from the previous one (in an
    /// object, its key did).
    fn begin_value(&mut self) {
        if let Some(f) = self.stack.last_mut()
            && !f.object
        {
            if f.count > 0 {
                self.text.extend_from_slice(b", ");
            }
            f.count += 1;
        }
    }

    /// Record a scalar whose JSON text `write` appends to the text buffer.
    pub(super) fn scalar(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        self.begin_value();
        let start = self.text.len();
        write(&mut self.text);
        // One position check, of the end: the start and the length are not larger.
        let end = pos(self.text.len());
        let len = (self.text.len() - start) as u32;
        self.items.push(Item::Text {
            start: end - len,
            len,
        });
    }

    /// Record an object key.
    pub(super) fn key(&mut self, key: &str) {
        self.key_with(key, prefix(key.as_bytes()), super::plain(key));
    }

    /// Record an object key that lives as long as the program (a struct field or variant
    /// name): its prefix and whether it needs escapes are computed once per name, not once per
    /// member ([`KeyCache`]; the same name recurs thousands of times in a case's expectation).
    pub(super) fn static_key(&mut self, key: &'static str) {
        let slot = self.static_keys.slot(key);
        let c = &self.static_keys.slots[slot];
        if !c.quoted {
            let (prefix, plain) = (c.prefix, c.plain);
            self.key_with(key, prefix, plain);
            return;
        }
        let i = self.items.len();
        let (after_member, equal_to) = self.note_key(i, c.prefix);
        // `, "key": ` from its start after a member, else from its quote: a fixed copy of
        // `KEY_TEXT - 2` bytes, then the length cut back.
        let from = if after_member { 0 } else { 2 };
        let at = self.text.len();
        if let Some(chunk) =
            self.static_keys.slots[slot].text[from..].first_chunk::<{ KEY_TEXT - 2 }>()
        {
            self.text.extend_from_slice(chunk);
        }
        self.text.truncate(at + key.len() + 6 - from);
        // One position check: the raw text starts right after the quote, and a quoted key is
        // at most `KEY_TEXT - 8` bytes long.
        let raw = pos(at + 3 - from);
        let raw_len = key.len() as u32;
        self.items.push(Item::Key {
            start: raw - 1,
            len: raw_len + 2,
            escaped: false,
            raw,
            raw_len,
        });
        self.order_equal_keys(i, equal_to);
    }

    /// Record an object key whose [`prefix`] is `prefix` and that needs no escape when
    /// `plain` (`super::plain(key)`).
    fn key_with(&mut self, key: &str, prefix: u64, plain: bool) {
        let i = self.items.len();
        let (after_member, equal_to) = self.note_key(i, prefix);
        if after_member {
            self.text.extend_from_slice(b", ");
        }
        let start = self.text.len();
        let (escaped, raw) = if plain {
            // The JSON text is the raw text quoted: one copy serves both.
            self.text.reserve(key.len() + 4);
            self.text.push(b'"');
            super::push_short(&mut self.text, key.as_bytes());
            self.text.push(b'"');
            (false, start + 1)
        } else {
            super::write_str(key, &mut self.text);
            let raw = self.raw_keys.len();
            self.raw_keys.extend_from_slice(key.as_bytes());
            (true, raw)
        };
        let len = self.text.len() - start;
        self.text.extend_from_slice(b": ");
        self.items.push(Item::Key {
            start: pos(start),
            len: pos(len),
            escaped,
            raw: pos(raw),
            raw_len: pos(key.len()),
        });
        self.order_equal_keys(i, equal_to);
    }

    /// Count the key of item `i` (prefix `prefix`) in the open object. Returns whether a
    /// member came before it (then a separator goes first), and the item of the previous key
    /// when the prefixes cannot tell their order (equal prefixes).
    #[inline]
    fn note_key(&mut self, i: usize, prefix: u64) -> (bool, Option<usize>) {
        // Whether the keys still come in strictly increasing order: the prefixes decide unless
        // they are equal (then the whole keys, once this one is recorded: `order_equal_keys`).
        let mut equal_to = None;
        let mut after_member = false;
        if let Some(f) = self.stack.last_mut() {
            if f.count > 0 {
                after_member = true;
                if f.ordered {
                    match f.last_prefix.cmp(&prefix) {
                        Ordering::Less => {}
                        Ordering::Equal => equal_to = Some(f.last_key),
                        Ordering::Greater => f.ordered = false,
                    }
                }
            }
            f.count += 1;
            f.last_key = i;
            f.last_prefix = prefix;
        }
        (after_member, equal_to)
    }

    /// Once the key item `i` is recorded: compare it with the previous key `equal_to` whose
    /// prefix is the same (`note_key`).
    #[inline]
    fn order_equal_keys(&mut self, i: usize, equal_to: Option<usize>) {
        if let Some(last) = equal_to
            && self.compare_keys(last, i) != Ordering::Less
            && let Some(f) = self.stack.last_mut()
        {
            f.ordered = false;
        }
    }

    /// Open an array or object; its members follow until [`Tape::close`] of the returned index.
    pub(super) fn open(&mut self, object: bool) -> usize {
        self.begin_value();
        if let Some(f) = self.stack.last_mut() {
            f.scalars = false;
        }
        let start = self.text.len();
        self.text.push(if object { b'{' } else { b'[' });
        self.items.push(Item::Open {
            object,
            count: 0,
            size: 0,
            order: IN_PLACE,
        });
        let at = self.items.len() - 1;
        self.stack.push(Frame {
            at,
            start,
            object,
            count: 0,
            scalars: true,
            expanded: false,
            ordered: true,
            last_key: at,
            last_prefix: 0,
        });
        at
    }

    /// The prefix and raw text of the key at item `i`.
    fn key_of(&self, i: usize) -> (u64, &[u8]) {
        match self.items[i] {
            Item::Key {
                start,
                escaped,
                raw,
                raw_len,
                ..
            } => {
                let (start, raw, raw_len) = (start as usize, raw as usize, raw_len as usize);
                let raw = if escaped {
                    &self.raw_keys[raw..raw + raw_len]
                } else {
                    &self.text[start + 1..start + 1 + raw_len]
                };
                (prefix(raw), raw)
            }
            _ => (0, &[]),
        }
    }

    /// The order of the keys at items `a` and `b` (byte order of their raw text).
    fn compare_keys(&self, a: usize, b: usize) -> Ordering {
        let (pa, ka) = self.key_of(a);
        let (pb, kb) = self.key_of(b);
        pa.cmp(&pb).then_with(|| ka.cmp(kb))
    }

    /// Close the container opened at `at` (the innermost open one). One that stays on one
    /// line becomes one piece of finished text (its members in key order); any other keeps
    /// its members, and the key order of an object's members when they came out of order (a
    /// repeated key keeps its last value, as a `serde_json::Map` does).
    pub(super) fn close(&mut self, at: usize) {
        let Some(f) = self.stack.pop() else {
            return;
        };
        if f.at != at {
            // Containers close innermost first; anything else is left open.
            self.stack.push(f);
            return;
        }
        self.text.push(if f.object { b'}' } else { b']' });
        let mut count = f.count;
        let mut len = self.text.len() - f.start;
        let mut order = IN_PLACE;
        if f.object && !f.ordered {
            // Members in key order, a repeated key keeping its last value (equal keys are
            // sorted in the order they came).
            let mut members = std::mem::take(&mut self.members);
            members.clear();
            let end = self.items.len();
            let mut i = at + 1;
            while i + 1 < end {
                members.push((self.key_of(i).0, i));
                i += 1 + self.items[i + 1].size();
            }
            // Most objects (struct fields) have keys whose prefixes differ: their prefix order
            // is their key order and no key repeats. Otherwise, one sort by the whole key,
            // then the order they came.
            members.sort_unstable_by_key(|m| m.0);
            if members.windows(2).any(|w| w[0].0 == w[1].0) {
                // Equal keys in the order they came (their items' order).
                members.sort_unstable_by(|&(pa, a), &(pb, b)| {
                    pa.cmp(&pb)
                        .then_with(|| self.key_of(a).1.cmp(self.key_of(b).1))
                        .then(a.cmp(&b))
                });
                let mut kept = 0;
                for n in 0..members.len() {
                    let repeated = members.get(n + 1).is_some_and(|&(p, next)| {
                        p == members[n].0 && self.compare_keys(next, members[n].1).is_eq()
                    });
                    if !repeated {
                        members[kept] = members[n];
                        kept += 1;
                    }
                }
                members.truncate(kept);
            }
            let kept = members.len();
            count = kept;
            if !f.expanded {
                len = 2
                    + members
                        .iter()
                        .map(|&(_, k)| self.items[k].len() + 2 + self.items[k + 1].len())
                        .sum::<usize>()
                    + 2 * kept.saturating_sub(1);
            }
            if f.expanded || len > INLINE {
                order = pos(self.order.len());
                self.order.extend(members.iter().map(|m| m.1));
            } else {
                self.sorted_inline(f.start, &members);
            }
            self.members = members;
        }
        let short_array = !f.object && f.scalars && count <= SHORT_ARRAY;
        let inline = !f.expanded && (len <= INLINE || short_array);
        if inline {
            self.items.truncate(at);
            self.items.push(Item::Text {
                start: pos(f.start),
                len: pos(self.text.len() - f.start),
            });
        } else {
            self.items[at] = Item::Open {
                object: f.object,
                count: pos(count),
                size: pos(self.items.len() - at),
                order,
            };
            if let Some(parent) = self.stack.last_mut() {
                parent.expanded = true;
            }
        }
    }

    /// Rewrite the one-line text of the object that starts at `start` (the end of the text)
    /// with the `members` (prefix, key item) in this order; every value is finished text.
    fn sorted_inline(&mut self, start: usize, members: &[(u64, usize)]) {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        out.push(b'{');
        for (n, &(_, key)) in members.iter().enumerate() {
            if n > 0 {
                out.extend_from_slice(b", ");
            }
            if let (Item::Key { start: k, .. }, Item::Text { start: v, len, .. }) =
                (self.items[key], self.items[key + 1])
            {
                // `"key": value`, as the key and its value were written.
                out.extend_from_slice(&self.text[k as usize..(v + len) as usize]);
            }
        }
        out.push(b'}');
        self.text.truncate(start);
        self.text.extend_from_slice(&out);
        self.scratch = out;
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

    /// Bytes to reserve for the text: the one-line text plus room for line breaks and
    /// indentation of the members written one per line.
    pub(super) fn text_size_hint(&self) -> usize {
        self.text.len() + self.items.len() * 16 + 64
    }

    /// Append the canonical text of the recorded value (and a final newline) to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        if self.items.is_empty() {
            return;
        }
        out.reserve(self.text_size_hint());
        self.write(0, 0, out);
        out.push(b'\n');
    }

    /// Write the item at `i` at `indent`; returns the index after its subtree.
    fn write(&self, i: usize, indent: usize, out: &mut Vec<u8>) -> usize {
        let Item::Open {
            object,
            count,
            size,
            order,
        } = self.items[i]
        else {
            if let Item::Text { start, len, .. } | Item::Key { start, len, .. } = self.items[i] {
                put::<PIECE_COPY>(out, &self.text, start as usize, len as usize);
            }
            return i + 1;
        };
        let (count, size) = (count as usize, size as usize);
        out.push(if object { b'{' } else { b'[' });
        if count == 0 {
            // Never recorded (an empty container stays on one line); written as it would be.
            line_break(false, indent, out);
        } else {
            line_break(false, indent + 1, out);
        }
        let mut cursor = i + 1;
        for n in 0..count {
            let j = if order == IN_PLACE {
                cursor
            } else {
                self.order[order as usize + n]
            };
            cursor = match (object, self.items[j], self.items.get(j + 1)) {
                // A key and its finished value: their one-line text `"key": value` is one
                // piece of the text (the value was recorded right after the key).
                (
                    true,
                    Item::Key { start, len, .. },
                    Some(&Item::Text {
                        start: v,
                        len: v_len,
                    }),
                ) if v == start + len + 2 => {
                    put::<MEMBER_COPY>(
                        out,
                        &self.text,
                        start as usize,
                        (v + v_len - start) as usize,
                    );
                    j + 2
                }
                (true, Item::Key { start, len, .. }, _) => {
                    put::<PIECE_COPY>(out, &self.text, start as usize, len as usize);
                    out.extend_from_slice(b": ");
                    self.write(j + 1, indent + 1, out)
                }
                (_, Item::Text { start, len }, _) => {
                    put::<PIECE_COPY>(out, &self.text, start as usize, len as usize);
                    j + 1
                }
                _ => self.write(j, indent + 1, out),
            };
            // The separator and the next line's indentation (or the closing one) at once.
            if n + 1 < count {
                line_break(true, indent + 1, out);
            } else {
                line_break(false, indent, out);
            }
        }
        out.push(if object { b'}' } else { b']' });
        i + size
    }
}

/// A line break (after a comma when `comma`) and the next line's indentation of two spaces per
/// level: one fixed copy (then the length cut back) for up to 16 levels.
fn line_break(comma: bool, indent: usize, out: &mut Vec<u8>) {
    const LINE: &[u8; 34] = b",\n                                ";
    let n = 2 * indent;
    if n <= 32 {
        let at = out.len();
        if comma {
            out.extend_from_slice(LINE);
            out.truncate(at + 2 + n);
        } else {
            if let Some(line) = LINE[1..].first_chunk::<33>() {
                out.extend_from_slice(line);
            }
            out.truncate(at + 1 + n);
        }
        return;
    }
    if comma {
        out.push(b',');
    }
    out.push(b'\n');
    pad(indent, out);
}

/// Two spaces per level, for the levels past those `line_break` writes with one fixed copy.
fn pad(indent: usize, out: &mut Vec<u8>) {
    const SPACES: &[u8; 32] = b"                                ";
    let mut n = 2 * indent;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.extend_from_slice(&SPACES[..k]);
        n -= k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHOLE: &str = "allows_ab\"x";

    /// `'static` keys of every kind, with whether the cache keeps their text `, "key": `
    /// (plain and at most 24 bytes long), stated by hand.
    fn static_keys() -> Vec<(&'static str, bool)> {
        vec![
            ("allows_ab", true),
            ("allows_ba", true),
            ("a", true),
            ("", true),
            ("tab\tkey", false),    // needs an escape
            ("quote\"d", false),    // needs an escape
            ("back\\slash", false), // needs an escape
            ("translation", true),
            ("exactly_twenty_four_byte", true),   // 24 bytes
            ("exactly_twenty_five_bytes", false), // 25 bytes
            ("a_rather_long_field_name_over_sixteen", false), // 37 bytes
            (&WHOLE[..6], true),                  // "allows", at the address of the next two
            (&WHOLE[..9], true),                  // "allows_ab" again, at another address
            (WHOLE, false),                       // needs an escape
            ("\u{e9}t\u{e9}", true),              // 5 bytes of UTF-8, no escape
        ]
    }

    /// The cached facts of a `'static` key are the facts [`Tape::key`] computes, whatever keys
    /// came before (keys sharing a slot, keys sharing an address but not a length).
    #[test]
    fn cached_key_facts_are_the_computed_ones() {
        let keys = static_keys();
        let mut cache = KeyCache::default();
        for round in 0..3 {
            for n in 0..keys.len() {
                // Each round visits the keys in another order.
                let (k, quoted) = if round == 1 {
                    keys[keys.len() - 1 - n]
                } else {
                    keys[n]
                };
                let c = cache.facts(k);
                assert_eq!(
                    (c.prefix, c.plain),
                    (prefix(k.as_bytes()), super::super::plain(k)),
                    "{k:?}"
                );
                assert_eq!(c.quoted, quoted, "{k:?}");
                if c.quoted {
                    let text = format!(", \"{k}\": ");
                    assert_eq!(&c.text[..text.len()], text.as_bytes(), "{k:?}");
                }
            }
        }
        // More keys than slots: every one still gets its own facts.
        let many: Vec<&'static str> = (0..2 * KeyCache::SLOTS)
            .map(|i| &*Box::leak(format!("k{i:04}\"").into_boxed_str()))
            .collect();
        for &k in many.iter().chain(many.iter().rev()) {
            let c = cache.facts(k);
            assert_eq!((c.prefix, c.plain), (prefix(k.as_bytes()), false), "{k:?}");
        }
    }

    /// What [`Tape::static_key`] writes: an object whose members are recorded with
    /// `'static` keys (cached text or not, first member or after one, in key order or not,
    /// repeated, equal first 8 bytes, on one line or one member per line, twice so the second
    /// time reads the cache) has the text of the same members recorded with [`Tape::key`] in
    /// key order.
    #[test]
    fn static_keys_write_what_keys_write() {
        let keys = static_keys();
        let n = keys.len();
        let mut tape = Tape::new();
        let mut check = |order: &[usize], long: bool| {
            let value = |i: usize| {
                if long {
                    Value::from(format!("{i}").repeat(20))
                } else {
                    Value::from(i)
                }
            };
            // The expected text: the members put in key order by hand (a repeated key keeping
            // its last value), so the tape's order logic has nothing to do.
            let by_key: std::collections::BTreeMap<&str, Value> =
                order.iter().map(|&i| (keys[i].0, value(i))).collect();
            let mut want = Tape::new();
            let doc = want.begin_object();
            for (k, v) in &by_key {
                want.member(k);
                want.push_value(v);
            }
            want.end_object(doc);
            for _ in 0..2 {
                tape.clear();
                let doc = tape.begin_object();
                for &i in order {
                    tape.static_key(keys[i].0);
                    tape.push_value(&value(i));
                }
                tape.end_object(doc);
                assert_eq!(tape.to_text(), want.to_text(), "{order:?}");
            }
        };
        let forward: Vec<usize> = (0..n).collect();
        let reverse: Vec<usize> = (0..n).rev().collect();
        // Sorted by key (repeats next to each other: "allows_ab" at 0 and 12).
        let mut sorted = forward.clone();
        sorted.sort_by_key(|&i| keys[i].0);
        for long in [false, true] {
            check(&forward, long);
            check(&reverse, long);
            check(&sorted, long);
            // Pairs: first 8 bytes differing, equal (cached and not: 8, 9; 12, 13), escaped
            // keys, a repeated key.
            for pair in [
                [0, 1],
                [1, 0],
                [8, 9],
                [9, 8],
                [12, 13],
                [13, 12],
                [4, 5],
                [5, 4],
                [0, 12],
            ] {
                check(&pair, long);
            }
            // Every key in order but one adjacent pair with equal first 8 bytes ("exactly_"):
            // only the whole keys tell that the object is out of order.
            let mut one_swap = sorted.clone();
            let at = one_swap.iter().position(|&i| i == 9).expect("listed");
            assert_eq!(one_swap[at + 1], 8, "sorted: 25 bytes, then 24");
            one_swap.swap(at, at + 1);
            check(&one_swap, long);
        }
    }
}
