//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

use maxconnect4::board::{Board, Column};
use maxconnect4::referee::{self, log::GameRecord};

/// The course's `input2.txt`: player 1 to move, twelve pieces.
pub const INPUT2: &str = "0000000\n0000000\n0200000\n0100002\n0200111\n1100222\n1\n";

/// A command running the built `maxconnect4` in `dir`, with colours off.
pub fn maxconnect4(dir: &Path) -> assert_cmd::Command {
    let mut command = assert_cmd::Command::new(env!("CARGO_BIN_EXE_maxconnect4"));
    command.current_dir(dir).env("NO_COLOR", "1").env_remove("RUST_BACKTRACE");
    command
}

/// Path of a file shipped in `input_files/`.
pub fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("input_files").join(name)
}

/// Writes `text` to `name` in `dir` and returns its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A temporary directory holding `in.txt`, the course's `input2.txt`.
pub fn dir_with_input2() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", INPUT2);
    dir
}

/// The names of the files in `dir`, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

/// Reads a file the program wrote, as text.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

/// A small deterministic random number generator (xorshift64*), so that
/// failing random cases can be reproduced from the seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }

    /// A position reached by `moves` random legal moves from the empty board.
    pub fn position(&mut self, moves: usize) -> Board {
        let mut board = Board::empty();
        for _ in 0..moves {
            let legal: Vec<Column> = board.legal_columns().collect();
            board.play(legal[self.below(legal.len())]);
        }
        board
    }
}

/// The move string of the first position along one line of play from the
/// empty board that the shipped Max-Connect4 book does not hold, whatever
/// the book: a position the engine searches rather than reads, for tests of
/// searches. At least 30 empty cells, so that it is no quick solve.
pub fn beyond_the_max_book() -> String {
    use maxconnect4::rules::Rules;
    use maxconnect4::search::{book::Book, Strength};
    let book = Book::shipped_for(Rules::Max);
    let line = "444433335555";
    let moves = (0..=line.len())
        .map(|length| &line[..length])
        .find(|moves| {
            let board = maxconnect4::moves::Moves::board(Rules::Max, moves).unwrap();
            book.board_value(Rules::Max, &board, Strength::Strong).is_none()
        })
        .expect("the shipped book holds fewer than 12 moves of this line");
    moves.to_owned()
}

/// A Max-Connect4 position one move from the empty board, whatever the
/// shipped book: a server started with `--no-book` searches it. Some of its
/// columns a search solves within a second, but not all: given 8 s on one
/// thread, `analyse --no-book --moves 4 --time-limit 8` solved columns 3,
/// 4 and 5 and left 1, 2, 6 and 7 at depth 19, so a server searching it
/// runs to its time limit.
pub const FAR_FROM_SOLVED: &str = "4";

/// Asserts two texts are equal, printing both in full when they differ.
#[track_caller]
pub fn assert_text(actual: &str, expected: &str) {
    if actual != expected {
        panic!("text differs\n--- expected\n{expected}\n--- actual\n{actual}\n---");
    }
}

/// A command template running the test bot `tests/bots/bot.py` with
/// `behaviour`, given `tag` (a path: a file the behaviour uses, and a mark
/// in the command line of every process of the bot) if any.
pub fn bot(behaviour: &str, tag: Option<&Path>) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("bots").join("bot.py");
    let mut words = vec![python().to_owned(), "-S".to_owned(), script.display().to_string(), behaviour.to_owned()];
    words.extend(["{in}", "{out}"].map(str::to_owned));
    words.extend(tag.map(|path| path.display().to_string()));
    shell_words::join(words)
}

/// The Python interpreter itself: `python3` may be a version manager's
/// shim that takes longer to start than the bots take to play. (`-S`, no
/// site packages, saves most of the rest.)
pub fn python() -> &'static str {
    static PYTHON: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PYTHON.get_or_init(|| {
        let output = std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("the tests need python3");
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    })
}

/// A player running the test bot `tests/bots/protocol_bot.py` speaking
/// `protocol` (`moderator` or `coordinator`) with `behaviour` and its
/// arguments: `moderator:python3 ... valid`.
pub fn protocol_bot(protocol: &str, behaviour: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("bots").join("protocol_bot.py");
    let mut words = vec![python().to_owned(), "-S".to_owned(), script.display().to_string(), protocol.to_owned()];
    words.extend(behaviour.iter().map(|word| (*word).to_owned()));
    format!("{protocol}:{}", shell_words::join(words))
}

/// A command template running our own one-move mode at `depth`, as a rival
/// program would be given.
pub fn engine(depth: u32) -> String {
    format!("{} one-move {{in}} {{out}} {depth}", shell_words::quote(env!("CARGO_BIN_EXE_maxconnect4")))
}

/// The complete records of a game log.
pub fn records(log: &Path) -> Vec<GameRecord> {
    let records = referee::log::read(log).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(records.skipped, [], "every line of {} is a game record", log.display());
    records.games
}

/// The processes running now (not zombies) with `tag` in their command
/// line, apart from `except`.
#[cfg(unix)]
pub fn running(tag: &Path, except: Option<u32>) -> Vec<i32> {
    let tag = tag.as_os_str().as_encoded_bytes();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|name| name.parse::<i32>().ok()) else { continue };
        if except.is_some_and(|except| except as i32 == pid) {
            continue;
        }
        let Ok(command) = std::fs::read(format!("/proc/{pid}/cmdline")) else { continue };
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')));
        if !zombie && command.windows(tag.len()).any(|window| window == tag) {
            found.push(pid);
        }
    }
    found
}

/// Asserts that no process with `tag` in its command line is running: the
/// referee, which has returned, waited until every process of its players
/// was gone.
#[cfg(unix)]
#[track_caller]
pub fn assert_gone(tag: &Path) {
    let left = running(tag, None);
    assert!(left.is_empty(), "processes still running: {left:?}");
}

/// Waits until a bot that hangs or waits runs in a referee whose
/// temporary directory is `temp`: such a bot makes the file `running` in
/// its folder. Polls for an event that is sure to come; the deadline only
/// turns a hang into a failure.
#[track_caller]
pub fn wait_for_bot(temp: &Path) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let started = || {
        std::fs::read_dir(temp).into_iter().flatten().flatten().any(|referee| {
            std::fs::read_dir(referee.path())
                .into_iter()
                .flatten()
                .flatten()
                .any(|player| player.path().join("running").exists())
        })
    };
    while !started() {
        assert!(std::time::Instant::now() < deadline, "the bot never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Engines with 4 MiB tables searching with each number of `threads`.
pub fn engines_with_threads(threads: &[usize]) -> Vec<maxconnect4::search::Engine> {
    threads
        .iter()
        .map(|&threads| {
            let mut engine = maxconnect4::search::Engine::max_without_book(1 << 22);
            engine.set_threads(threads);
            engine
        })
        .collect()
}

/// Runs the shards of a job as the README shows on a cluster: a script
/// `shard.sh` in `dir` runs `words` with `tail` added (which names shard
/// `$1`), and GNU parallel runs it for shards 0 to `shards` - 1, two at a
/// time, keeping a job log; run twice, the second run resumes and runs
/// nothing again.
pub fn run_shards_under_parallel(dir: &Path, words: &[String], tail: &str, shards: usize) {
    let quoted: Vec<String> = words.iter().map(|word| shell_words::quote(word).into_owned()).collect();
    let script =
        format!("exec {} {} {tail}\n", shell_words::quote(env!("CARGO_BIN_EXE_maxconnect4")), quoted.join(" "));
    std::fs::write(dir.join("shard.sh"), script).unwrap();
    let indices: Vec<String> = (0..shards).map(|index| index.to_string()).collect();
    for _ in 0..2 {
        let status = std::process::Command::new("parallel")
            .current_dir(dir)
            .args(["--will-cite", "--halt", "now,fail=1", "--jobs", "2", "--joblog", "joblog", "--resume"])
            .args(["bash", "shard.sh", ":::"])
            .args(&indices)
            .status()
            .unwrap();
        assert!(status.success(), "parallel ran every shard");
    }
    let joblog = read(&dir.join("joblog"));
    assert_eq!(joblog.lines().count(), shards + 1, "a header and one line per shard, none run twice:\n{joblog}");
}

/// A merge of shards' files refused: `words` then `inputs` then `--out
/// out`, run in `dir`, must fail with exit 1 and one line on stderr, which
/// it returns, and write nothing at `out`.
pub fn merge_refused(dir: &Path, words: &[&str], inputs: &[&str], out: &str) -> String {
    let assert = maxconnect4(dir).args(words).args(inputs).args(["--out", out]).assert().code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(!dir.join(out).exists(), "nothing written");
    stderr
}

/// Every path under `dir` (`dir` itself left out), each folder's before
/// what it holds.
pub fn paths_under(dir: &Path) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path.clone());
            }
            paths.push(path);
        }
    }
    paths
}

/// Makes the named pipe `path`: `mkfifo(3)`, which every Unix has
/// (rustix's `mkfifoat` is missing on macOS).
pub fn make_fifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt as _;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: `path` is a NUL-terminated string that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0, "{}", std::io::Error::last_os_error());
}

/// Runs `maxconnect4 ARGS` in `dir`: its exit code (-1 if a signal ended
/// it), standard output and standard error.
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = maxconnect4(dir).args(args).output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

/// [`run_in`] a fresh directory.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), args)
}

/// `args` fail in `dir` with exit `code` and `message` on stderr: on one
/// line when the exit is 1 (a usage error, 2, comes with clap's usage).
#[track_caller]
pub fn check_error_in(dir: &Path, args: &[&str], code: i32, message: &str) {
    let (status, _, stderr) = run_in(dir, args);
    assert_eq!(status, code, "{args:?}: {stderr}");
    assert!(stderr.contains(message), "{args:?}: expected '{message}' in\n{stderr}");
    if code == 1 {
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line expected:\n{stderr}");
    }
}
