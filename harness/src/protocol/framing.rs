//! Newline-delimited framing with a bound on the line length, so a peer that writes a huge
//! line (or never ends one) costs at most `limit` bytes of memory.

use std::io::{self, BufRead, Write};

/// One frame read from a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A complete line, without its `\n` (and without a `\r` before it).
    Line(Vec<u8>),
    /// A line longer than the limit; its bytes were read and dropped up to its `\n` (or the end
    /// of the stream). `len` counts every byte of it.
    TooLong { len: u64 },
    /// The stream ended. Bytes after the last `\n` (an unterminated line) are `Line` first.
    Eof,
}

/// Reads [`Frame`]s from a buffered reader, holding at most `limit` bytes of a line.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner,
            limit,
            buf: Vec::new(),
        }
    }

    /// The next frame. I/O errors (other than an interrupted read) are returned as they are.
    pub fn next_frame(&mut self) -> io::Result<Frame> {
        self.buf.clear();
        let mut len: u64 = 0;
        let mut too_long = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                // End of stream: an unterminated line still counts as one.
                return Ok(if too_long {
                    Frame::TooLong { len }
                } else if len > 0 {
                    Frame::Line(std::mem::take(&mut self.buf))
                } else {
                    Frame::Eof
                });
            }
            let (part, used, done) = match chunk.iter().position(|b| *b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            len += part.len() as u64;
            if !too_long {
                if self.buf.len() + part.len() > self.limit {
                    too_long = true;
                    self.buf = Vec::new(); // give the memory back
                } else {
                    self.buf.extend_from_slice(part);
                }
            }
            self.inner.consume(used);
            if done {
                if too_long {
                    return Ok(Frame::TooLong { len });
                }
                if self.buf.last() == Some(&b'\r') {
                    self.buf.pop();
                }
                return Ok(Frame::Line(std::mem::take(&mut self.buf)));
            }
        }
    }
}

/// Write one line (the text must not contain `\n`; JSON from `serde_json` never does) and
/// flush, so the peer sees it at once.
pub fn write_line(out: &mut impl Write, text: &[u8]) -> io::Result<()> {
    out.write_all(text)?;
    out.write_all(b"\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], limit: usize, cap: usize) -> Vec<Frame> {
        // A small BufReader capacity makes lines span many fills.
        let mut r = LineReader::new(io::BufReader::with_capacity(cap, input), limit);
        let mut out = Vec::new();
        loop {
            let f = r.next_frame().expect("in-memory reads do not fail");
            let end = f == Frame::Eof;
            out.push(f);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn splits_lines_and_bounds_them() {
        let got = frames(b"ab\r\n\n0123456789\nxyz", 5, 3);
        assert_eq!(
            got,
            vec![
                Frame::Line(b"ab".to_vec()),
                Frame::Line(Vec::new()),
                Frame::TooLong { len: 10 },
                Frame::Line(b"xyz".to_vec()),
                Frame::Eof,
            ]
        );
        // Exactly at the limit is fine.
        assert_eq!(frames(b"01234\n", 5, 2)[0], Frame::Line(b"01234".to_vec()));
        // An unterminated over-long tail.
        assert_eq!(frames(b"0123456", 5, 4)[0], Frame::TooLong { len: 7 });
    }

    proptest::proptest! {
        /// Whatever the chunking, the frames are the lines of the input, each kept iff short.
        #[test]
        fn frames_are_the_lines(lines in proptest::collection::vec("[a-z]{0,12}", 0..8),
                                limit in 0usize..10, cap in 1usize..7) {
            let mut input = Vec::new();
            for l in &lines {
                input.extend_from_slice(l.as_bytes());
                input.push(b'\n');
            }
            let mut want: Vec<Frame> = lines
                .iter()
                .map(|l| if l.len() > limit {
                    Frame::TooLong { len: l.len() as u64 }
                } else {
                    Frame::Line(l.as_bytes().to_vec())
                })
                .collect();
            want.push(Frame::Eof);
            proptest::prop_assert_eq!(frames(&input, limit, cap), want);
        }
    }
}
