//! A record of one JSON value on its way to canonical text, built in one-line form as the
//! value comes: separators are written as members arrive, so a container's one-line text is
//! the contiguous text from its opening bracket, and its length is known when it closes.
//! While a container is open, only where each of its members starts is noted (one `u32`, for
//! an array's scalars too); a scalar records nothing else but its text. A container that stays
//! on one line is then finished at once (its members put in key order if they came out of
//! order, a repeated key keeping its last value) and leaves nothing but its text (the nodes of
//! values dropped with a repeated key stay, unused); only a container written one member per
//! line becomes a [`Node`], with one [`Span`] per member in the order they are written. Writing
//! the text is then one pass over the nodes, a copy per member.

use std::borrow::Cow;
use std::cmp::Ordering;

use serde::Deserialize;
use serde_json::Value;

use super::{INLINE, SHORT_ARRAY};

/// `Span::child` of a member that is finished one-line text.
const NO_CHILD: u32 = u32::MAX;

/// A position or length on a tape. Member starts, nodes and spans hold them as `u32` (a
/// span is 12 bytes: the tape of a case's expectation has thousands of members), so a tape
/// holds less than 4 GiB of text. The generator's documents are far smaller (a file is at most
/// `MAX_FILE_SIZE`, 512 MiB). A tape that outgrew that is a bug in the program, never input:
/// it stops rather than write wrong text. Checked once per container, when it closes (every
/// member start noted in it is below its end), and before writing.
fn pos(n: usize) -> u32 {
    match u32::try_from(n) {
        Ok(p) if p != NO_CHILD => p,
        _ => panic!("a canonical tape outgrew 4 GiB ({n})"),
    }
}

/// A container written one member per line: its members are `Tape::spans[first..first +
/// count]`, in the order they are written (key order for an object, a repeated key keeping
/// its last value).
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    object: bool,
    /// Where its opening bracket is in `Tape::text`.
    start: u32,
    first: u32,
    count: u32,
}

/// A member of a [`Node`]: its one-line text `text[start..end]` (`"key": value` in an object),
/// or, when its value is written one member per line (the node `child`), the text before that
/// value (`"key": `, or nothing in an array), then the value.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    start: u32,
    end: u32,
    child: u32,
}

/// A container being recorded (or, as `Tape::top` when none is open, the place of the root
/// value: an object that no key ever comes into, so that the root value records nothing but
/// its text).
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Where its opening bracket is in `Tape::text`.
    start: u32,
    /// Where its members' starts begin in `Tape::bounds`.
    bounds: u32,
    /// Where its members written one member per line begin in `Tape::pending`.
    children: u32,
    object: bool,
    /// No member is a container.
    scalars: bool,
    /// A member is written one member per line (so is this container then, unless the member
    /// is a repeated key's dropped value: see `Tape::kept_expanded`).
    expanded: bool,
    /// The keys so far came in strictly increasing order.
    ordered: bool,
    /// The [`prefix`] of the last key.
    last_prefix: u64,
}

impl Frame {
    /// A container opened at `start` whose members start at `bounds[bounds]` and whose nodes
    /// start at `pending[children]`.
    fn new(object: bool, start: u32, bounds: u32, children: u32) -> Frame {
        Frame {
            start,
            bounds,
            children,
            object,
            scalars: true,
            expanded: false,
            ordered: true,
            last_prefix: 0,
        }
    }
}

impl Default for Frame {
    fn default() -> Frame {
        Frame::new(true, 0, 0, 0)
    }
}

/// One JSON value as a tape (reusable: [`Tape::clear`] keeps the buffers).
#[derive(Debug, Default)]
pub struct Tape {
    pub(super) text: Vec<u8>,
    /// Where each member of the open containers starts in `text` (at its key's quote in an
    /// object), outermost container first.
    bounds: Vec<u32>,
    /// The containers written one member per line, in the order they closed.
    nodes: Vec<Node>,
    /// Their members.
    spans: Vec<Span>,
    /// Nodes whose container's parent is still open, in document order.
    pending: Vec<u32>,
    /// The innermost open container (a field, not the top of `stack`: every scalar and key
    /// reads it).
    top: Frame,
    /// The open containers around `top`, outermost first (the root's place first).
    stack: Vec<Frame>,
    /// Scratch of `close`: (key prefix, member number) of the object being closed.
    members: Vec<(u64, u32)>,
    /// Scratch of `close`: the sorted one-line text of an object.
    scratch: Vec<u8>,
    /// Scratch of `close`: the spans of an object in the order its members came.
    came: Vec<Span>,
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

    /// The slot that holds the facts of `key` (computed now if neither slot of its pair
    /// holds them).
    ///
    /// Two slots per key (a pair picked by the address, either slot): with one, the hundred
    /// names of an expectation had hot names sharing a slot, each pushing the other out, and
    /// which ones depended on where the linker put them.
    #[inline]
    fn slot(&mut self, key: &'static str) -> usize {
        let addr = key.as_ptr() as usize;
        let pair = Self::pair(addr);
        let holds = |c: &CachedKey| c.addr == addr && c.len == key.len();
        // The slots as a fixed-size array: the indices need no bounds checks.
        if let Some(slots) = self.slots.first_chunk::<{ Self::SLOTS }>() {
            if holds(&slots[pair]) {
                return pair;
            }
            if holds(&slots[pair + 1]) {
                return pair + 1;
            }
        }
        self.fill(pair, key)
    }

    /// The first slot of the pair of the key at `addr`: Fibonacci hashing of the address,
    /// whose high bits pick the pair.
    fn pair(addr: usize) -> usize {
        2 * (addr.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (usize::BITS - 7))
    }

    /// Compute the facts of `key` into the first slot of `pair`, its facts moved to the
    /// second (the least recently computed of the two goes); the first time, make the slots.
    #[cold]
    #[inline(never)]
    fn fill(&mut self, pair: usize, key: &'static str) -> usize {
        if self.slots.len() != Self::SLOTS {
            self.slots = vec![CachedKey::default(); Self::SLOTS];
        }
        self.slots[pair + 1] = self.slots[pair];
        self.slots[pair] = CachedKey::of(key);
        pair
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
    text: usize,
    bounds: usize,
    nodes: usize,
    spans: usize,
    pending: usize,
    stack: usize,
    top: Frame,
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

/// The raw text of the key whose JSON text starts at `text[at]` (its opening quote): the
/// bytes up to the closing quote when the key needs no escape, else the string serde_json
/// reads back from its JSON text (the key it was written from).
fn raw_key(text: &[u8], at: usize) -> Cow<'_, [u8]> {
    let body = text.get(at + 1..).unwrap_or_default();
    let end = body
        .iter()
        .position(|&b| b == b'"' || b == b'\\')
        .unwrap_or(body.len());
    if body.get(end) == Some(&b'\\') {
        let mut de = serde_json::Deserializer::from_slice(&text[at..]);
        if let Ok(key) = String::deserialize(&mut de) {
            return Cow::Owned(key.into_bytes());
        }
    }
    Cow::Borrowed(&body[..end])
}

/// The [`prefix`] of the key whose JSON text starts at `text[at]` (its opening quote): the 8
/// bytes after the quote, cut at the closing quote when it is among them, tested all at once
/// (no byte-by-byte search for the quote); through [`raw_key`] when an escape comes first.
fn key_prefix(text: &[u8], at: usize) -> u64 {
    if let Some(head) = text.get(at + 1..).and_then(|t| t.first_chunk::<8>()) {
        let x = u64::from_le_bytes(*head);
        // The lowest byte flagged is exact (a false flag can only follow a true one).
        let (quote, backslash) = (super::equal8(x, b'"'), super::equal8(x, b'\\'));
        let stop = quote | backslash;
        if stop == 0 {
            return u64::from_be_bytes(*head);
        }
        // The first quote or backslash: a quote ends the key, `p` bytes long (p < 8).
        let p = stop.trailing_zeros() / 8;
        if quote & (0x80 << (8 * p)) != 0 {
            // The key's bytes are the low `p` bytes of `x` (little-endian): as big-endian
            // and zero-padded, its prefix.
            return (x & ((1u64 << (8 * p)) - 1)).swap_bytes();
        }
    }
    prefix(&raw_key(text, at))
}

/// Whether the key whose JSON text starts at `text[at]` comes before `key` (the keys' first 8
/// bytes are equal: rare, out of the way of the common path).
#[cold]
#[inline(never)]
fn comes_before(text: &[u8], at: usize, key: &str) -> bool {
    *raw_key(text, at) < *key.as_bytes()
}

/// Bytes of the fixed copy of [`put`] for the text before a value (larger fixed copies
/// measured slower).
const PIECE_COPY: usize = 16;
/// Bytes of the fixed copy of [`put`] for the text of a whole member, `"key": value`.
const MEMBER_COPY: usize = 32;

/// Append `text[start..start + len]` to `out`. Pieces are short: one fixed copy of `N` bytes
/// (then the length cut back) instead of a copy of variable length where the text allows it.
#[inline]
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
        self.text.clear();
        self.bounds.clear();
        self.nodes.clear();
        self.spans.clear();
        self.pending.clear();
        self.top = Frame::default();
        self.stack.clear();
    }

    pub(super) fn mark(&self) -> Mark {
        Mark {
            text: self.text.len(),
            bounds: self.bounds.len(),
            nodes: self.nodes.len(),
            spans: self.spans.len(),
            pending: self.pending.len(),
            stack: self.stack.len(),
            top: self.top,
        }
    }

    pub(super) fn rewind(&mut self, mark: Mark) {
        self.text.truncate(mark.text);
        self.bounds.truncate(mark.bounds);
        self.nodes.truncate(mark.nodes);
        self.spans.truncate(mark.spans);
        self.pending.truncate(mark.pending);
        self.stack.truncate(mark.stack);
        self.top = mark.top;
    }

    /// Start a value: in an array, separate it from the previous one and note where it
    /// starts (in an object, its key did).
    #[inline(always)]
    fn begin_value(&mut self) {
        if !self.top.object {
            if self.bounds.len() > self.top.bounds as usize {
                self.text.extend_from_slice(b", ");
            }
            // Checked when the array closes.
            self.bounds.push(self.text.len() as u32);
        }
    }

    /// Record a scalar whose JSON text `write` appends to the text buffer.
    #[inline]
    pub(super) fn scalar(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        self.begin_value();
        write(&mut self.text);
    }

    /// Record an object key.
    pub(super) fn key(&mut self, key: &str) {
        self.key_with(key, prefix(key.as_bytes()), super::plain(key));
    }

    /// Record an object key that lives as long as the program (a struct field or variant
    /// name): its prefix and whether it needs escapes are computed once per name, not once per
    /// member ([`KeyCache`]; the same name recurs thousands of times in a case's expectation).
    ///
    /// It checks the order and notes the member start as [`Tape::note_key`] does, written out
    /// here: calling it (with the cached text copied out first) cost 0.6% more instructions
    /// over whole cases (the s8-tape engineer's cachegrind, session 8; not in BENCHMARKS.md).
    pub(super) fn static_key(&mut self, key: &'static str) {
        let slot = self.static_keys.slot(key);
        // The slots as a fixed-size array, the index masked: no bounds checks. `slot` made
        // the slots; were they missing, the key's facts are computed here.
        let Some(slots) = self.static_keys.slots.first_chunk::<{ KeyCache::SLOTS }>() else {
            self.key(key);
            return;
        };
        let c = &slots[slot % KeyCache::SLOTS];
        if !c.quoted {
            let (prefix, plain) = (c.prefix, c.plain);
            self.key_with(key, prefix, plain);
            return;
        }
        let f = &mut self.top;
        let after_member = self.bounds.len() > f.bounds as usize;
        if after_member && f.ordered {
            match f.last_prefix.cmp(&c.prefix) {
                Ordering::Less => {}
                Ordering::Greater => f.ordered = false,
                Ordering::Equal => {
                    let last = self.bounds.last().map_or(0, |&b| b as usize);
                    f.ordered = comes_before(&self.text, last, key);
                }
            }
        }
        f.last_prefix = c.prefix;
        let at = self.text.len();
        // `, "key": ` from its start after a member, else from its quote: a fixed copy of
        // `KEY_TEXT - 2` bytes, then the length cut back. The member starts at the quote
        // (checked when the object closes).
        let from = if after_member { 0 } else { 2 };
        self.bounds.push((at + 2 - from) as u32);
        if let Some(chunk) = c.text[from..].first_chunk::<{ KEY_TEXT - 2 }>() {
            self.text.extend_from_slice(chunk);
        }
        self.text.truncate(at + key.len() + 6 - from);
    }

    /// Record an object key whose [`prefix`] is `prefix` and that needs no escape when
    /// `plain` (`super::plain(key)`).
    fn key_with(&mut self, key: &str, prefix: u64, plain: bool) {
        if self.note_key(key, prefix) {
            self.text.extend_from_slice(b", ");
        }
        if plain {
            self.text.reserve(key.len() + 4);
            self.text.push(b'"');
            super::push_short(&mut self.text, key.as_bytes());
            self.text.push(b'"');
        } else {
            super::write_str(key, &mut self.text);
        }
        self.text.extend_from_slice(b": ");
    }

    /// Count the key `key` (prefix `prefix`), about to be written, in the open object and note
    /// where its member starts. Returns whether a member came before it (then a separator
    /// goes first).
    #[inline(always)]
    fn note_key(&mut self, key: &str, prefix: u64) -> bool {
        let f = &mut self.top;
        let after_member = self.bounds.len() > f.bounds as usize;
        // Whether the keys still come in strictly increasing order: the prefixes decide unless
        // they are equal (then the whole keys).
        if after_member && f.ordered {
            match f.last_prefix.cmp(&prefix) {
                Ordering::Less => {}
                Ordering::Greater => f.ordered = false,
                Ordering::Equal => {
                    let last = self.bounds.last().map_or(0, |&b| b as usize);
                    f.ordered = comes_before(&self.text, last, key);
                }
            }
        }
        f.last_prefix = prefix;
        // Checked when the object closes.
        let at = self.text.len() + if after_member { 2 } else { 0 };
        self.bounds.push(at as u32);
        after_member
    }

    /// Open an array or object; its members follow until [`Tape::close`] of the returned
    /// handle (its depth).
    pub(super) fn open(&mut self, object: bool) -> usize {
        self.top.scalars = false;
        self.begin_value();
        let start = self.text.len() as u32;
        self.text.push(if object { b'{' } else { b'[' });
        let frame = Frame::new(
            object,
            start,
            self.bounds.len() as u32,
            self.pending.len() as u32,
        );
        self.stack.push(std::mem::replace(&mut self.top, frame));
        self.stack.len()
    }

    /// Close the container opened with the handle `depth` (the innermost open one). One that
    /// stays on one line is then finished text (its members in key order); any other becomes
    /// a [`Node`] (a repeated key keeps its last value, as a `serde_json::Map` does).
    pub(super) fn close(&mut self, depth: usize) {
        if self.stack.len() != depth {
            // Containers close innermost first; anything else is left open.
            return;
        }
        let Some(parent) = self.stack.pop() else {
            return;
        };
        let f = std::mem::replace(&mut self.top, parent);
        self.text.push(if f.object { b'}' } else { b']' });
        let end = pos(self.text.len());
        if f.object && !f.ordered {
            self.close_unordered(f, end);
            return;
        }
        // Most containers (members in order, on one line) end here: their member starts are
        // dropped.
        let first = f.bounds as usize;
        let count = self.bounds.len() - first;
        let short_array = !f.object && f.scalars && count <= SHORT_ARRAY;
        if !f.expanded && ((end - f.start) as usize <= INLINE || short_array) {
            self.bounds.truncate(first);
        } else {
            self.expand(f, end, false);
        }
    }

    /// [`Tape::close`] of an object whose members came out of key order (or with a key
    /// repeated): its one-line length is that of its members in key order, a repeated key
    /// keeping its last value.
    #[inline(never)]
    fn close_unordered(&mut self, f: Frame, end: u32) {
        let first = f.bounds as usize;
        self.sort_members(first);
        let count = self.members.len();
        let len = 2
            + self
                .members
                .iter()
                .map(|&(_, k)| self.member_len(first, k as usize, end))
                .sum::<usize>()
            + 2 * count.saturating_sub(1);
        if !self.kept_expanded(&f, first, end) && len <= INLINE {
            // The nodes of dropped values (a repeated key's first) go with them.
            self.pending.truncate(f.children as usize);
            self.sorted_inline(f.start as usize, first, end);
            self.bounds.truncate(first);
        } else {
            self.expand(f, end, true);
        }
    }

    /// Whether a member the object `f` keeps (in `members`) is written one member per line: a
    /// repeated key's dropped value may have been, and does not count.
    fn kept_expanded(&self, f: &Frame, first: usize, end: u32) -> bool {
        if !f.expanded {
            return false;
        }
        let pending = &self.pending[f.children as usize..];
        self.members.iter().any(|&(_, k)| {
            let k = k as usize;
            let (from, to) = (self.bounds[first + k], self.member_end(first, k, end));
            pending
                .iter()
                .any(|&n| (from..to).contains(&self.nodes[n as usize].start))
        })
    }

    /// Where member `k` of the container whose members start at `bounds[first]` and whose
    /// closing bracket ends at `end` ends (before its separator or the bracket).
    #[inline]
    fn member_end(&self, first: usize, k: usize, end: u32) -> u32 {
        member_end(&self.bounds[first..], k, end)
    }

    fn member_len(&self, first: usize, k: usize, end: u32) -> usize {
        (self.member_end(first, k, end) - self.bounds[first + k]) as usize
    }

    /// `members`: (key prefix, member number) of the members of the object being closed
    /// (members from `bounds[first]`), in key order, a repeated key keeping its last value
    /// (equal keys are sorted in the order they came).
    fn sort_members(&mut self, first: usize) {
        let mut members = std::mem::take(&mut self.members);
        members.clear();
        members.extend(
            self.bounds[first..]
                .iter()
                .zip(0..)
                .map(|(&b, k)| (key_prefix(&self.text, b as usize), k)),
        );
        // Most objects (struct fields) have keys whose prefixes differ: their prefix order
        // is their key order and no key repeats. Otherwise, one sort by the whole key, then
        // the order they came.
        members.sort_unstable_by_key(|m| m.0);
        if members.windows(2).any(|w| w[0].0 == w[1].0) {
            let key = |k: u32| raw_key(&self.text, self.bounds[first + k as usize] as usize);
            members.sort_unstable_by(|&(pa, a), &(pb, b)| {
                pa.cmp(&pb)
                    .then_with(|| key(a).cmp(&key(b)))
                    .then(a.cmp(&b))
            });
            let mut kept = 0;
            for n in 0..members.len() {
                let (p, k) = members[n];
                let repeated = members
                    .get(n + 1)
                    .is_some_and(|&(q, next)| q == p && key(next) == key(k));
                if !repeated {
                    members[kept] = members[n];
                    kept += 1;
                }
            }
            members.truncate(kept);
        }
        self.members = members;
    }

    /// Rewrite the one-line text of the object that starts at `start` (the end of the text,
    /// members from `bounds[first]`, closing bracket ending at `end`) with its `members` in
    /// their order.
    fn sorted_inline(&mut self, start: usize, first: usize, end: u32) {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        out.push(b'{');
        for (n, &(_, k)) in self.members.iter().enumerate() {
            if n > 0 {
                out.extend_from_slice(b", ");
            }
            let k = k as usize;
            let from = self.bounds[first + k] as usize;
            out.extend_from_slice(&self.text[from..self.member_end(first, k, end) as usize]);
        }
        out.push(b'}');
        self.text.truncate(start);
        self.text.extend_from_slice(&out);
        self.scratch = out;
    }

    /// Make the container `f` just closed (closing bracket ending at `end`) a [`Node`]: a span
    /// per member, in key order when `sorted` (the order of `members`), each with the node of
    /// its value when that is written one member per line too.
    #[inline(never)]
    fn expand(&mut self, f: Frame, end: u32, sorted: bool) {
        let first = f.bounds as usize;
        let at = self.spans.len();
        let bounds = &self.bounds[first..];
        // The members' nodes are the pending ones, in document order: each lies in the first
        // member not yet matched whose text ends after the node's start.
        let pending = &self.pending[f.children as usize..];
        let nodes = &self.nodes;
        let mut next = 0;
        self.spans
            .extend(bounds.iter().enumerate().map(|(k, &start)| {
                let end = member_end(bounds, k, end);
                let child = match pending.get(next) {
                    Some(&n) if nodes[n as usize].start < end => {
                        next += 1;
                        n
                    }
                    _ => NO_CHILD,
                };
                Span { start, end, child }
            }));
        if sorted {
            let mut came = std::mem::take(&mut self.came);
            came.clear();
            came.extend_from_slice(&self.spans[at..]);
            self.spans.truncate(at);
            self.spans
                .extend(self.members.iter().map(|&(_, k)| came[k as usize]));
            self.came = came;
        }
        let node = pos(self.nodes.len());
        self.nodes.push(Node {
            object: f.object,
            start: f.start,
            first: pos(at),
            count: pos(self.spans.len() - at),
        });
        self.pending.truncate(f.children as usize);
        self.pending.push(node);
        self.bounds.truncate(first);
        self.top.expanded = true;
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
            Value::Number(n) => self.scalar(|t| super::write_number(n, t)),
            Value::Bool(b) => self.scalar(|t| super::write_bool(*b, t)),
            Value::Null => self.scalar(super::write_null),
        }
    }

    /// Bytes to reserve for the text: the one-line text plus room for line breaks and
    /// indentation of the members written one per line.
    pub(super) fn text_size_hint(&self) -> usize {
        self.text.len() + self.spans.len() * 16 + 64
    }

    /// Append the canonical text of the recorded value (and a final newline) to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        if self.text.is_empty() {
            return;
        }
        pos(self.text.len());
        out.reserve(self.text_size_hint());
        // A value written one member per line is the one node left pending (nodes of dropped
        // values may come before it in `nodes`, or be there when the value is one line); any
        // other is its one-line text.
        match self
            .pending
            .last()
            .and_then(|&n| self.nodes.get(n as usize))
        {
            Some(root) => self.write(root, 0, out),
            None => out.extend_from_slice(&self.text),
        }
        out.push(b'\n');
    }

    /// Write `node` at `indent`.
    fn write(&self, node: &Node, indent: usize, out: &mut Vec<u8>) {
        let first = node.first as usize;
        let spans = &self.spans[first..first + node.count as usize];
        out.push(if node.object { b'{' } else { b'[' });
        if spans.is_empty() {
            // Never recorded (an empty container stays on one line); written as it would be.
            line_break(false, indent, out);
        } else {
            line_break(false, indent + 1, out);
        }
        for (n, s) in spans.iter().enumerate() {
            let start = s.start as usize;
            match self.nodes.get(s.child as usize) {
                None => put::<MEMBER_COPY>(out, &self.text, start, (s.end - s.start) as usize),
                Some(child) => {
                    // `"key": ` (nothing in an array), then the value.
                    put::<PIECE_COPY>(out, &self.text, start, child.start as usize - start);
                    self.write(child, indent + 1, out);
                }
            }
            // The separator and the next line's indentation (or the closing one) at once.
            if n + 1 < spans.len() {
                line_break(true, indent + 1, out);
            } else {
                line_break(false, indent, out);
            }
        }
        out.push(if node.object { b'}' } else { b']' });
    }
}

/// A line break (after a comma when `comma`) and the next line's indentation of two spaces per
/// level: one fixed copy (then the length cut back) for up to 16 levels.
#[inline]
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

/// Where member `k` of a container ends (before its separator or the bracket), `bounds` the
/// starts of its members and `end` the end of its closing bracket.
#[inline]
fn member_end(bounds: &[u32], k: usize, end: u32) -> u32 {
    bounds.get(k + 1).map_or(end - 1, |&b| b - 2)
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

    /// Three `'static` keys whose addresses pick the same pair of slots.
    fn colliding_keys() -> (&'static str, &'static str, &'static str) {
        let mut by_pair: std::collections::HashMap<usize, Vec<&'static str>> = Default::default();
        let mut n = 0;
        loop {
            n += 1;
            let k: &'static str = Box::leak(format!("key{n}").into_boxed_str());
            let same = by_pair
                .entry(KeyCache::pair(k.as_ptr() as usize))
                .or_default();
            same.push(k);
            if let [a, b, c] = same[..] {
                return (a, b, c);
            }
        }
    }

    /// `static_key` finds a key in either slot of its pair, as `KeyCache::slot` does:
    /// recording `a`, then `b` (computed into the first slot, `a` moved to the second), then
    /// `a` again leaves both where they are; the text is that of the object, `a` once.
    #[test]
    fn static_key_finds_a_key_in_either_slot() {
        let (a, b, _) = colliding_keys();
        let mut tape = Tape::new();
        let at = tape.open(true);
        for k in [a, b, a] {
            tape.static_key(k);
            tape.scalar(|t| t.push(b'1'));
        }
        tape.close(at);
        let pair = KeyCache::pair(a.as_ptr() as usize);
        let addr = |slot: usize| tape.static_keys.slots[slot].addr;
        assert_eq!(addr(pair), b.as_ptr() as usize);
        assert_eq!(addr(pair + 1), a.as_ptr() as usize);
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        assert_eq!(tape.to_text(), format!("{{\"{lo}\": 1, \"{hi}\": 1}}\n"));
    }

    /// Two keys whose addresses pick the same pair of slots both stay cached (each found
    /// where it is, not computed again, which would put it in the first slot), and a third
    /// one that picks the pair pushes out the one computed least recently.
    #[test]
    fn two_keys_of_a_pair_both_stay_cached() {
        let (a, b, c) = colliding_keys();
        let mut cache = KeyCache::default();
        let pair = cache.slot(a);
        assert_eq!(pair % 2, 0);
        // b computed into the first slot, a moved to the second.
        assert_eq!(cache.slot(b), pair);
        for _ in 0..3 {
            assert_eq!(cache.slot(a), pair + 1);
            assert_eq!(cache.slot(b), pair);
        }
        // c computed into the first slot, b moved to the second, a out (computed again).
        assert_eq!(cache.slot(c), pair);
        assert_eq!(cache.slot(b), pair + 1);
        assert_eq!(cache.slot(a), pair);
        for k in [a, b, c] {
            let c = cache.facts(k);
            assert_eq!(
                (c.addr, c.prefix),
                (k.as_ptr() as usize, prefix(k.as_bytes()))
            );
        }
    }

    proptest::proptest! {
        /// The prefix of a key read from its JSON text is the prefix of the key, whatever its
        /// length, its escapes (before, within or after its first 8 bytes) and what follows it
        /// (the rest of a member, or the end of the text).
        #[test]
        fn a_key_prefix_read_from_the_text_is_the_key_prefix(
            key in "[a-z\"\\\\\n\u{1}\u{e9}]{0,12}",
            rest in proptest::prop_oneof![proptest::strategy::Just(""), proptest::strategy::Just(": 1, \"k\": 2}")],
        ) {
            let mut text = b"{".to_vec();
            super::super::write_str(&key, &mut text);
            text.extend_from_slice(rest.as_bytes());
            proptest::prop_assert_eq!(key_prefix(&text, 1), prefix(key.as_bytes()), "{:?}", key);
        }
    }

    #[test]
    fn key_prefixes_by_hand() {
        // `{"ab": 1}`: "ab" is 2 bytes, the quote at byte 2 of the 8 read: 0x6162 << 48.
        assert_eq!(key_prefix(b"{\"ab\": 1, \"c\": 2}", 1), 0x6162 << 48);
        // Empty key: the quote first, prefix 0.
        assert_eq!(key_prefix(b"{\"\": 1, \"c\": 2}", 1), 0);
        // 8 bytes or more: the first 8.
        assert_eq!(
            key_prefix(b"{\"position_a\": 1}", 1),
            u64::from_be_bytes(*b"position")
        );
        // An escape among the first 8: the key read back, "a\"b".
        assert_eq!(key_prefix(b"{\"a\\\"b\": 1, \"c\": 2}", 1), prefix(b"a\"b"));
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
