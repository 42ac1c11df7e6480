//! Reading a pipe without a thread wake-up per message. On an idle virtual machine, waking a
//! thread blocked in `read` costs tens of microseconds, as much as a whole small request; the
//! next message of the protocol usually arrives within microseconds of the previous answer.
//! [`Polled`] makes a pipe non-blocking and, when it is empty, polls it for a short while
//! (yielding the core) before it blocks in `poll(2)`. `serve` reads its stdin through it. (The
//! harness side already polls the channel of its reader thread; polling the child's stdout in
//! that thread as well measured no faster: `BENCHMARKS.md`, stdio.)

use std::io::{self, ErrorKind, Read};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, poll};
use rustix::fs::{FileType, fstat};

/// How long an empty pipe is polled before the reader blocks.
pub const SPIN: Duration = Duration::from_micros(200);

/// A reader that polls its pipe for [`SPIN`] before blocking. Anything other than a pipe (a
/// file, a terminal) is read as it is: `O_NONBLOCK` belongs to the open file, shared with every
/// process holding it (a terminal's with the shell), and only our pipes are ours alone.
#[derive(Debug)]
pub struct Polled<R> {
    inner: R,
    /// Whether `inner` was made non-blocking.
    polled: bool,
}

impl<R: Read + AsFd> Polled<R> {
    pub fn new(inner: R) -> Polled<R> {
        let pipe =
            fstat(&inner).is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Fifo);
        let polled = pipe && rustix::io::ioctl_fionbio(&inner, true).is_ok();
        Polled { inner, polled }
    }

    /// Whether reads poll (the input is a pipe made non-blocking).
    pub fn polled(&self) -> bool {
        self.polled
    }
}

impl<R: Read + AsFd> Read for Polled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.polled {
            return self.inner.read(buf);
        }
        let start = Instant::now();
        loop {
            match self.inner.read(buf) {
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    if start.elapsed() < SPIN {
                        std::thread::yield_now();
                    } else {
                        let mut fds = [PollFd::new(&self.inner, PollFlags::IN)];
                        match poll(&mut fds, None) {
                            Ok(_) | Err(rustix::io::Errno::INTR) => {}
                            Err(e) => return Err(e.into()),
                        }
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                r => return r,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A pipe is polled: a message written after the spin still arrives whole (the reader
    /// blocks in `poll`), and the end of the pipe reads as 0.
    #[test]
    fn a_pipe_is_read_whole_after_the_spin() {
        let (rx, tx) = std::io::pipe().expect("pipe");
        let mut r = Polled::new(rx);
        assert!(r.polled());
        let writer = std::thread::spawn(move || {
            let mut tx = tx;
            std::thread::sleep(SPIN * 5);
            tx.write_all(b"late\n").expect("write");
        });
        let mut got = Vec::new();
        r.read_to_end(&mut got).expect("read");
        writer.join().expect("writer");
        assert_eq!(got, b"late\n");
    }

    /// A regular file is not touched (no `O_NONBLOCK`), and reads as usual.
    #[test]
    fn a_file_is_read_as_it_is() {
        let path = std::env::temp_dir().join(format!("physics-cts-pipe-{}", std::process::id()));
        std::fs::write(&path, b"abc").expect("write");
        let mut r = Polled::new(std::fs::File::open(&path).expect("open"));
        assert!(!r.polled());
        let mut got = String::new();
        r.read_to_string(&mut got).expect("read");
        assert_eq!(got, "abc");
        let _ = std::fs::remove_file(&path);
    }
}
