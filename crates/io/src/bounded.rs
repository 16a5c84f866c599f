//! Files read from outside, bounded: a board file, a log, a book, a batch of
//! positions. Whatever a user or another program names is opened without
//! waiting (a named pipe with no writer would block `open` for ever), read
//! only if it is a regular file (a device such as `/dev/zero` never ends, a
//! pipe may never answer), and read no further than the most such a file
//! holds, so that a wrong path costs a one-line error, never a hang or the
//! machine's memory.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

use maxconnect4_game::format::{self, BoardFile};

/// Opens the file at `path` for reading, if it is a regular file.
///
/// # Errors
/// When it cannot be opened, or is a directory, a named pipe, a device or a
/// socket (said in words).
pub fn open(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // Opening a named pipe waits for a writer unless told not to; reads
        // of a regular file never wait, so the flag changes nothing else.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    regular(&file)?;
    Ok(file)
}

/// Checks that `file` is a regular file.
///
/// # Errors
/// What it is instead, in words.
pub fn regular(file: &File) -> io::Result<()> {
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() { "a directory" } else { kind_of_special(&kind) };
    Err(io::Error::new(io::ErrorKind::InvalidInput, format!("it is {what}, not a regular file")))
}

#[cfg(unix)]
fn kind_of_special(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn kind_of_special(_: &std::fs::FileType) -> &'static str {
    "not a file"
}

/// Reads the regular file at `path`, which must hold at most `limit` bytes;
/// `what` names what it should be, for the error.
///
/// # Errors
/// When it cannot be opened or read, is not a regular file, or holds more.
pub fn read(path: &Path, limit: u64, what: &str) -> io::Result<Vec<u8>> {
    read_from(open(path)?, limit, what)
}

/// Reads `file` whole, which must hold at most `limit` bytes.
///
/// # Errors
/// When it cannot be read or holds more.
pub fn read_from(file: File, limit: u64, what: &str) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("it holds more than {}, far more than any {what}", size(limit)),
        ));
    }
    Ok(bytes)
}

/// The most a board file may hold. One is under 100 bytes (seven lines of
/// at most nine); this leaves room for any trailing blank space while a
/// device or a runaway file (`/dev/zero`) is refused at once instead of
/// read until memory runs out.
pub const BOARD_FILE_LIMIT: u64 = 64 << 10;

/// Reads a board file of at most [`BOARD_FILE_LIMIT`] bytes, unparsed.
///
/// # Errors
/// When the file cannot be read, is not a regular file or holds more than
/// the limit.
pub fn board_file_bytes(path: &Path) -> io::Result<Vec<u8>> {
    read(path, BOARD_FILE_LIMIT, "board file")
}

/// Why a board file was not read; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum BoardFileError {
    /// The file could not be opened or read, is not a regular file, or
    /// holds more than [`BOARD_FILE_LIMIT`].
    #[error("cannot read {}", .path.display())]
    Read {
        /// The board file, as given.
        path: PathBuf,
        /// Why, in the words of [`board_file_bytes`]'s error.
        #[source]
        source: io::Error,
    },
    /// Read, but not a board file: the source names the line.
    #[error("{} is not a valid board file", .path.display())]
    Invalid {
        /// The board file, as given.
        path: PathBuf,
        /// What is wrong with it, and on which line.
        #[source]
        source: format::ParseError,
    },
}

/// Reads and parses a board file; errors name the file and the line.
///
/// ```
/// use std::error::Error as _;
///
/// use maxconnect4_io::bounded::{self, BoardFileError};
///
/// let folder = tempfile::tempdir().unwrap();
/// let path = folder.path().join("input.txt");
/// std::fs::write(&path, "0000000\n0000000\n0000000\n0000000\n0000000\n1000000\n2\n").unwrap();
/// let file = bounded::read_board_file(&path).unwrap();
/// assert_eq!(file.board.pieces_played(), 1);
///
/// // Not a board file: the error names the file, its source the line.
/// std::fs::write(&path, "0000000\n0000000\n").unwrap();
/// let error = bounded::read_board_file(&path).unwrap_err();
/// assert!(matches!(error, BoardFileError::Invalid { .. }));
/// assert_eq!(error.to_string(), format!("{} is not a valid board file", path.display()));
///
/// // A folder (or a pipe, or a device) is refused without being read.
/// let error = bounded::read_board_file(folder.path()).unwrap_err();
/// assert!(matches!(error, BoardFileError::Read { .. }));
/// assert_eq!(error.source().unwrap().to_string(), "it is a directory, not a regular file");
/// ```
///
/// # Errors
/// When the file cannot be read or is not a valid board file.
pub fn read_board_file(path: &Path) -> Result<BoardFile, BoardFileError> {
    let text = board_file_bytes(path).map_err(|source| BoardFileError::Read { path: path.to_owned(), source })?;
    format::parse(&text).map_err(|source| BoardFileError::Invalid { path: path.to_owned(), source })
}

/// `bytes` in words: KiB, MiB or GiB, whole.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b => format!("{} KiB", b >> 10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes the named pipe `path`: `mkfifo(3)`, which every Unix has
    /// (rustix's `mkfifoat` is missing on macOS).
    #[cfg(unix)]
    fn make_fifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt as _;
        let path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: `path` is a NUL-terminated string that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    }

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "12345").unwrap();
        assert_eq!(read(&file, 5, "test").unwrap(), b"12345");
        assert_eq!(read(&file, 4, "test").unwrap_err().to_string(), "it holds more than 0 KiB, far more than any test");
        assert_eq!(read(dir.path(), 5, "test").unwrap_err().to_string(), "it is a directory, not a regular file");
        #[cfg(unix)]
        {
            assert_eq!(
                read(Path::new("/dev/zero"), 5, "x").unwrap_err().to_string(),
                "it is a device, not a regular file"
            );
            let fifo = dir.path().join("fifo");
            make_fifo(&fifo);
            assert_eq!(read(&fifo, 5, "x").unwrap_err().to_string(), "it is a named pipe, not a regular file");
        }
    }
}
