//! Opening the files a document is read from (the document itself, the buffers beside it):
//! regular files only, read with a hard bound.
//!
//! A FIFO, a device, a socket or a folder is refused before a byte is read: `/dev/zero` never
//! ends, and a FIFO without a writer never answers. The open itself does not block (on Unix the
//! file is opened with `O_NONBLOCK`, which a FIFO honours and a regular file ignores), and the
//! type is taken from the opened file, so a file swapped between a check and the open is still
//! caught. The length the file reports is never trusted for the read: at most `limit + 1` bytes
//! are read, so a file that grows while it is read still ends as too large.

use std::fs::{File, Metadata};
use std::io::Read as _;
use std::path::Path;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// It cannot be opened, examined or read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// It is not a regular file (`kind` says what it is: "a folder", "a FIFO"...).
    #[error("it is {kind}, not a regular file")]
    NotRegular { kind: &'static str },
    /// It holds more than the limit: `size` is the length it reports, or the bytes read when
    /// it reported fewer (the limit plus one).
    #[error("it is {size} bytes, over the limit of {limit}")]
    TooLarge { size: u64, limit: u64 },
}

/// Open the regular file at `path` for reading, without blocking, with its length as it
/// reports it.
pub fn open_regular(path: &Path) -> Result<(File, u64), FileError> {
    let file = match open_nonblocking(path) {
        Ok(file) => file,
        Err(e) => {
            // A socket cannot be opened at all: say what it is rather than the open's error.
            if let Ok(meta) = std::fs::metadata(path)
                && !meta.is_file()
                && !meta.is_dir()
            {
                return Err(FileError::NotRegular { kind: kind(&meta) });
            }
            return Err(FileError::Io(e));
        }
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(FileError::NotRegular { kind: kind(&meta) });
    }
    Ok((file, meta.len()))
}

/// The whole regular file at `path`, if it holds at most `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let (file, len) = open_regular(path)?;
    read_bounded(file, len, limit)
}

/// The rest of `file`, whose reported length is `len`, if it holds at most `limit` bytes.
pub fn read_bounded(file: File, len: u64, limit: u64) -> Result<Vec<u8>, FileError> {
    if len > limit {
        return Err(FileError::TooLarge { size: len, limit });
    }
    // Capacity from the reported length, read bounded by the limit: a file may have grown, and
    // pseudo-files (/proc) report 0 and hold more.
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > limit {
        return Err(FileError::TooLarge { size: read, limit });
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
    let fd = rustix::fs::open(path, flags, Mode::empty()).map_err(std::io::Error::from)?;
    Ok(File::from(fd))
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// What a file that is not a regular file is, for a message.
fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "physics-cts-file-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary folder");
        dir
    }

    #[test]
    fn a_regular_file_is_read_up_to_the_limit_inclusive() {
        let dir = temp("regular");
        let path = dir.join("a.bin");
        std::fs::write(&path, [7u8; 10]).expect("write");
        assert_eq!(read_regular(&path, 10).expect("10 bytes fit"), [7u8; 10]);
        let err = read_regular(&path, 9).expect_err("10 bytes are over 9");
        assert!(matches!(err, FileError::TooLarge { size: 10, limit: 9 }));
        std::fs::remove_dir_all(&dir).expect("remove");
    }

    #[test]
    fn a_folder_is_not_a_regular_file() {
        let dir = temp("folder");
        let err = read_regular(&dir, 100).expect_err("a folder");
        assert!(matches!(err, FileError::NotRegular { kind: "a folder" }));
        std::fs::remove_dir_all(&dir).expect("remove");
    }

    /// A source that never ends is refused by its type, before a byte is read.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_refused_and_a_bounded_read_of_it_ends() {
        let err = read_regular(Path::new("/dev/zero"), 100).expect_err("a device");
        assert!(matches!(
            err,
            FileError::NotRegular {
                kind: "a character device"
            }
        ));
        // The bound alone also ends it: what a file that grows while it is read meets.
        let file = File::open("/dev/zero").expect("open /dev/zero");
        let err = read_bounded(file, 0, 100).expect_err("endless");
        assert!(matches!(
            err,
            FileError::TooLarge {
                size: 101,
                limit: 100
            }
        ));
    }

    /// A FIFO with no writer would block a plain open for reading forever.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_fifo_without_a_writer_is_refused_without_blocking() {
        let dir = temp("fifo");
        let path = dir.join("f.gltf");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        let err = read_regular(&path, 100).expect_err("a FIFO");
        assert!(matches!(err, FileError::NotRegular { kind: "a FIFO" }));
        std::fs::remove_dir_all(&dir).expect("remove");
    }

    #[test]
    fn a_missing_file_is_an_io_error() {
        let dir = temp("missing");
        let err = read_regular(&dir.join("none"), 100).expect_err("missing");
        assert!(matches!(err, FileError::Io(ref e) if e.kind() == std::io::ErrorKind::NotFound));
        std::fs::remove_dir_all(&dir).expect("remove");
    }
}
