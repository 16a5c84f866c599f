//! Which version of each program a report measured, so that figures can be
//! told apart when the program changes: this program's version and the git
//! revision it was built from, and for a player's program a fingerprint of
//! the files of its folder (and that folder's git revision, if it is a
//! checkout). A fact that cannot be found is left out; it never stops a
//! report.

use std::fs::File;
use std::io::{self, Read as _};
use std::os::fd::{AsFd as _, OwnedFd};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

/// The largest file put in a fingerprint, and the most files: a program's
/// folder holds sources and a few data files; anything beyond is not its code.
const LARGEST_FILE: u64 = 16 << 20;
const MOST_FILES: usize = 1_000;

/// The most a checkout's `HEAD` or a branch's file may hold (one line of 41
/// bytes, or a reference's name), and its `packed-refs` (a line per branch
/// and tag): what a submission's `.git` holds is read no further.
const LARGEST_REF: u64 = 4 << 10;
const LARGEST_PACKED_REFS: u64 = 1 << 20;

/// This program's version: the package's, and the git revision it was
/// built from where the build could tell (see `build.rs`).
#[must_use]
pub fn own() -> String {
    let version = env!("CARGO_PKG_VERSION");
    match option_env!("MAXCONNECT4_REVISION").filter(|revision| !revision.is_empty()) {
        Some(revision) => format!("{version}, built from git revision {revision}"),
        None => format!("{version} (built outside a git checkout: no revision)"),
    }
}

/// A program in `folder` (the folder copied for its runs), in words: the
/// SHA-256 of its files, short, and the folder's git revision if it is in a
/// checkout. "unknown" when the folder cannot be read.
#[must_use]
pub fn of_folder(folder: &Path) -> String {
    let mut parts = Vec::new();
    if let Some((files, digest)) = fingerprint(folder) {
        parts.push(format!(
            "files of {}: {files} file{}, SHA-256 {digest}",
            folder.display(),
            if files == 1 { "" } else { "s" }
        ));
    }
    if let Some(revision) = git_revision(folder) {
        parts.push(format!("git revision {revision}"));
    }
    if parts.is_empty() {
        "unknown".to_owned()
    } else {
        parts.join("; ")
    }
}

/// How many files lie directly in `folder` (not its subfolders: a report
/// written there, or a build's output, is not the program) and the first 12
/// hexadecimal digits of the SHA-256 of their names and contents, in name
/// order. A symbolic link is no file of the program: it is neither counted
/// nor followed. The files are hashed as they are read, a piece at a time,
/// so a folder of large files costs no memory; none is read past the length
/// it had when opened.
fn fingerprint(folder: &Path) -> Option<(usize, String)> {
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(folder)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .filter(|entry| entry.metadata().is_ok_and(|metadata| metadata.len() <= LARGEST_FILE))
        .map(|entry| (entry.file_name().to_string_lossy().into_owned(), entry.path()))
        .collect();
    files.sort();
    files.truncate(MOST_FILES);
    let mut hash = Sha256::new();
    for (name, path) in &files {
        // A file replaced by a link since the folder was listed is not followed.
        let file =
            std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path).ok()?;
        crate::bounded::regular(&file).ok()?;
        let length = file.metadata().ok()?.len();
        if length > LARGEST_FILE {
            return None;
        }
        // Each name and content with its length, so no two folders run together.
        hash.update(&(name.len() as u64).to_be_bytes());
        hash.update(name.as_bytes());
        hash.update(&length.to_be_bytes());
        // A file that shrank while it was read has no fingerprint.
        if io::copy(&mut file.take(length), &mut hash).ok()? != length {
            return None;
        }
    }
    let digest: String = hash.finish().iter().map(|byte| format!("{byte:02x}")).collect();
    Some((files.len(), digest[..12].to_owned()))
}

/// The commit the checkout holding `folder` is at, its first 12 digits,
/// read from the checkout's own files: git is not run there, as a
/// submission's folder is not to be trusted, and git runs what a checkout's
/// configuration names (`core.fsmonitor`, say). Those files are read with
/// this program's own code, a few KiB at most, and through no symbolic link
/// (`.git` itself must be a folder, not a link): a link could lead to any
/// file of the machine, and its contents into the report.
fn git_revision(folder: &Path) -> Option<String> {
    let git = folder.ancestors().map(|dir| dir.join(".git")).find(|git| std::fs::symlink_metadata(git).is_ok())?;
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let git = rustix::fs::open(&git, flags, Mode::empty()).ok()?;
    let head = read_in(&git, "HEAD", LARGEST_REF)?;
    let head = head.trim();
    let commit = match head.strip_prefix("ref: ") {
        None => head.to_owned(),
        // A branch's commit: its file, else its line in packed-refs.
        Some(reference) if reference.starts_with("refs/") && !reference.contains("..") => {
            match read_in(&git, reference, LARGEST_REF) {
                Some(commit) => commit.trim().to_owned(),
                None => read_in(&git, "packed-refs", LARGEST_PACKED_REFS)?
                    .lines()
                    .find_map(|line| line.strip_suffix(reference)?.strip_suffix(' ').map(str::to_owned))?,
            }
        }
        Some(_) => return None,
    };
    let hex = commit.len() >= 12 && commit.chars().all(|c| c.is_ascii_hexdigit());
    hex.then(|| commit[..12].to_owned())
}

/// The text of the regular file at `relative` (names joined by `/`) in the
/// folder `git`, of at most `limit` bytes, opened one name at a time so
/// that no symbolic link on the way is followed.
fn read_in(git: &OwnedFd, relative: &str, limit: u64) -> Option<String> {
    let mut names: Vec<&str> = relative.split('/').collect();
    let name = names.pop()?;
    if names.iter().chain([&name]).any(|name| name.is_empty() || *name == "..") {
        return None;
    }
    let mut folder: Option<OwnedFd> = None;
    for inner in names {
        let at = folder.as_ref().map_or(git.as_fd(), |folder| folder.as_fd());
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        folder = Some(rustix::fs::openat(at, inner, flags, Mode::empty()).ok()?);
    }
    let at = folder.as_ref().map_or(git.as_fd(), |folder| folder.as_fd());
    // Not waiting on a named pipe, which is then refused.
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let file = File::from(rustix::fs::openat(at, name, flags, Mode::empty()).ok()?);
    crate::bounded::regular(&file).ok()?;
    String::from_utf8(crate::bounded::read_from(file, limit, "git reference file").ok()?).ok()
}

/// SHA-256 (FIPS 180-4), fed a piece at a time: the fingerprint a reader
/// can check with `sha256sum`, with no dependency for a few lines.
struct Sha256 {
    state: [u32; 8],
    /// The message's bytes not yet hashed, fewer than a block.
    pending: [u8; 64],
    pending_len: usize,
    /// The message's length in bytes so far.
    length: u64,
}

impl Sha256 {
    const INITIAL: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

    const fn new() -> Sha256 {
        Sha256 { state: Self::INITIAL, pending: [0; 64], pending_len: 0, length: 0 }
    }

    /// Adds `bytes` to the message.
    fn update(&mut self, mut bytes: &[u8]) {
        self.length = self.length.wrapping_add(bytes.len() as u64);
        if self.pending_len > 0 {
            let taken = bytes.len().min(64 - self.pending_len);
            self.pending[self.pending_len..self.pending_len + taken].copy_from_slice(&bytes[..taken]);
            self.pending_len += taken;
            bytes = &bytes[taken..];
            if self.pending_len < 64 {
                return;
            }
            let block = self.pending;
            compress(&mut self.state, &block);
            self.pending_len = 0;
        }
        let mut blocks = bytes.chunks_exact(64);
        for block in &mut blocks {
            compress(&mut self.state, block.try_into().expect("a block is 64 bytes"));
        }
        let rest = blocks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    /// The digest of the whole message: it is padded with a 1 bit, zeros,
    /// and its length in bits.
    fn finish(mut self) -> [u8; 32] {
        let bits = self.length.wrapping_mul(8);
        let zeros = (64 + 56 - (self.pending_len + 1) % 64) % 64;
        self.update(&[0x80]);
        self.update(&[0u8; 64][..zeros]);
        self.update(&bits.to_be_bytes());
        debug_assert_eq!(self.pending_len, 0);
        let mut digest = [0u8; 32];
        for (bytes, word) in digest.chunks_exact_mut(4).zip(self.state) {
            bytes.copy_from_slice(&word.to_be_bytes());
        }
        digest
    }
}

/// A file is hashed by copying it into the hash.
impl io::Write for Sha256 {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// SHA-256's compression of one 64-byte `block` into `state`.
fn compress(state: &mut [u32; 8], block: &[u8; 64]) {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut w = [0u32; 64];
    for (i, word) in block.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
    }
    for i in 16..64 {
        let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
        let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for i in 0..64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let choice = (e & f) ^ (!e & g);
        let t1 = h.wrapping_add(s1).wrapping_add(choice).wrapping_add(K[i]).wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let majority = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(majority);
        (h, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
    }
    for (value, add) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *value = value.wrapping_add(add);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkout's commit is read from its files: a branch's own file, or
    /// its line in packed-refs, or a detached HEAD; a folder below it is in
    /// the same checkout.
    #[test]
    fn a_checkouts_revision_is_read_without_running_git() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        std::fs::create_dir_all(git.join("refs/heads")).unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let commit = "0123456789abcdef0123456789abcdef01234567";
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(git.join("refs/heads/main"), format!("{commit}\n")).unwrap();
        assert_eq!(git_revision(&dir.path().join("src")).as_deref(), Some("0123456789ab"));
        std::fs::remove_file(git.join("refs/heads/main")).unwrap();
        std::fs::write(git.join("packed-refs"), format!("# pack-refs\n{commit} refs/heads/main\n")).unwrap();
        assert_eq!(git_revision(dir.path()).as_deref(), Some("0123456789ab"));
        std::fs::write(git.join("HEAD"), "ref: ../../etc/passwd\n").unwrap();
        assert_eq!(git_revision(dir.path()), None);
        std::fs::write(git.join("HEAD"), format!("{commit}\n")).unwrap();
        assert_eq!(git_revision(dir.path()).as_deref(), Some("0123456789ab"));
    }

    /// A link in a checkout is not followed, wherever it is: `HEAD`, a
    /// folder on the way to a branch's file, or `.git` itself.
    #[test]
    fn a_checkouts_revision_is_not_read_through_a_symbolic_link() {
        let outside = tempfile::tempdir().unwrap();
        let commit = "0123456789abcdef0123456789abcdef01234567";
        std::fs::write(outside.path().join("secret"), format!("{commit}\n")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        std::fs::create_dir(&git).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), git.join("HEAD")).unwrap();
        assert_eq!(git_revision(dir.path()), None, "HEAD is a link to a file outside");

        std::fs::remove_file(git.join("HEAD")).unwrap();
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::create_dir_all(outside.path().join("refs/heads")).unwrap();
        std::fs::write(outside.path().join("refs/heads/main"), format!("{commit}\n")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("refs"), git.join("refs")).unwrap();
        assert_eq!(git_revision(dir.path()), None, "refs/ is a link to a folder outside");

        let real = tempfile::tempdir().unwrap();
        std::fs::create_dir(real.path().join(".git")).unwrap();
        std::fs::write(real.path().join(".git/HEAD"), format!("{commit}\n")).unwrap();
        assert_eq!(git_revision(real.path()).as_deref(), Some("0123456789ab"));
        let linked = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(real.path().join(".git"), linked.path().join(".git")).unwrap();
        assert_eq!(git_revision(linked.path()), None, ".git is a link to another checkout's");
    }

    #[test]
    fn a_checkouts_files_are_read_only_up_to_a_bound() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        std::fs::create_dir(&git).unwrap();
        let commit = "0123456789abcdef0123456789abcdef01234567";
        let padded = format!("{commit}{}\n", " ".repeat(LARGEST_REF as usize));
        std::fs::write(git.join("HEAD"), &padded).unwrap();
        assert_eq!(git_revision(dir.path()), None, "a HEAD larger than any is not read");
        std::fs::write(git.join("HEAD"), format!("{commit}\n")).unwrap();
        assert_eq!(git_revision(dir.path()).as_deref(), Some("0123456789ab"));
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    /// The digest of `message` given whole.
    fn sha256(message: &[u8]) -> [u8; 32] {
        let mut hash = Sha256::new();
        hash.update(message);
        hash.finish()
    }

    #[test]
    fn sha256_gives_the_standards_test_vectors() {
        assert_eq!(hex(&sha256(b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(hex(&sha256(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let two_blocks = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        assert_eq!(hex(&sha256(two_blocks)), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        let million = vec![b'a'; 1_000_000];
        assert_eq!(hex(&sha256(&million)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    /// However a message is cut into pieces, its digest is the same.
    #[test]
    fn sha256_in_pieces_is_sha256_of_the_whole() {
        let message: Vec<u8> = (0..300u32).map(|i| (i * 7 % 251) as u8).collect();
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300] {
            let whole = sha256(&message[..length]);
            for cut in [1, 3, 63, 64, 65] {
                let mut hash = Sha256::new();
                for piece in message[..length].chunks(cut) {
                    hash.update(piece);
                }
                assert_eq!(hash.finish(), whole, "{length} bytes in pieces of {cut}");
            }
        }
    }

    #[test]
    fn a_folders_fingerprint_changes_with_a_file_and_ignores_subfolders() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "print(1)").unwrap();
        let before = fingerprint(dir.path()).unwrap();
        std::fs::create_dir(dir.path().join("timing_report")).unwrap();
        std::fs::write(dir.path().join("timing_report/REPORT.md"), "x").unwrap();
        assert_eq!(fingerprint(dir.path()).unwrap(), before, "a report written in a subfolder is not the program");
        std::fs::write(dir.path().join("bot.py"), "print(2)").unwrap();
        let after = fingerprint(dir.path()).unwrap();
        assert_eq!(after.0, 1);
        assert_ne!(after.1, before.1);
        assert!(of_folder(dir.path()).contains(&format!("1 file, SHA-256 {}", after.1)));
    }

    /// The fingerprint is the SHA-256 of each file's name and contents, each
    /// with its length before it, in name order, as it always was; a link
    /// in the folder is not followed, nor counted.
    #[test]
    fn a_folders_fingerprint_hashes_its_files_names_and_contents_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "not the program's").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("link.py")).unwrap();
        let big: Vec<u8> = (0..100_000u32).map(|i| (i % 253) as u8).collect();
        std::fs::write(dir.path().join("b.dat"), &big).unwrap();
        std::fs::write(dir.path().join("a.py"), "print(1)").unwrap();
        let mut message = Vec::new();
        for part in [&b"a.py"[..], b"print(1)", b"b.dat", &big] {
            message.extend_from_slice(&(part.len() as u64).to_be_bytes());
            message.extend_from_slice(part);
        }
        assert_eq!(fingerprint(dir.path()).unwrap(), (2, hex(&sha256(&message))[..12].to_owned()));
    }
}
