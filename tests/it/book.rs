//! The classic opening book: `book` builds one, `solve` and the players use
//! it (the one shipped in the program unless `--book FILE` or `--no-book`),
//! and a damaged book file is refused with one line.

use maxconnect4::moves::Moves;
use std::path::{Path, PathBuf};

use maxconnect4::board::Board;
use maxconnect4::rules::Rules;

use super::util::{check_error_in, maxconnect4, read, run_in, write};

/// A Middle-Easy benchmark position (23 stones, value 8): a book two moves
/// deep from it builds in a moment.
const LATE_ROOT: &str = "52753311433677442422121";

/// The move strings of every position up to `depth` moves after `root`
/// where the game goes on.
fn positions(root: &str, depth: usize) -> Vec<String> {
    let mut all = vec![root.to_owned()];
    let mut layer = vec![root.to_owned()];
    for _ in 0..depth {
        let mut next = Vec::new();
        for moves in &layer {
            let board = Moves::board(Rules::Classic, moves).unwrap();
            for column in board.legal_columns() {
                let child = format!("{moves}{column}");
                if !Rules::Classic.is_over(&Moves::board(Rules::Classic, &child).unwrap()) {
                    next.push(child);
                }
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

/// `solve`'s answer (`value V best ...`) for `moves` with the book options `book`.
fn solve(dir: &Path, moves: &str, book: &[&str]) -> String {
    let mut args = vec!["solve", "--rules", "classic", "--moves", moves];
    args.extend_from_slice(book);
    let (code, stdout, stderr) = run_in(dir, &args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// The nodes of `solve`'s figures line on stderr.
fn nodes_searched(stderr: &str) -> u64 {
    let figures = stderr.lines().find(|line| line.starts_with("Solved ")).unwrap_or_else(|| panic!("{stderr}"));
    figures.split(": ").nth(1).and_then(|rest| rest.split(' ').next()).unwrap().parse().unwrap()
}

#[test]
fn a_book_from_a_late_root_agrees_with_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) =
        run_in(dir.path(), &["book", "--moves", LATE_ROOT, "--depth", "2", "--threads", "2", "--out", "late.book"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("Wrote late.book: "), "{stdout}");
    // The progress file is gone once the book is written.
    assert!(!dir.path().join("late.book.progress").exists());
    let covered = positions(LATE_ROOT, 2);
    assert!(stdout.contains(&format!(" {} positions up to 2 moves from '{LATE_ROOT}'", count_after_symmetry(&covered))));
    for moves in &covered {
        let with_book = solve(dir.path(), moves, &["--book", "late.book"]);
        assert_eq!(with_book, solve(dir.path(), moves, &["--no-book"]), "{moves}");
        // Up to a move before the book's deepest layer, no search at all.
        if moves.len() < LATE_ROOT.len() + 2 {
            let (_, _, stderr) =
                run_in(dir.path(), &["solve", "--rules", "classic", "--moves", moves, "--book", "late.book"]);
            assert_eq!(nodes_searched(&stderr), 0, "{moves}");
        }
    }
    // The weak answers from the book agree too.
    for moves in covered.iter().step_by(5) {
        let weak = solve(dir.path(), moves, &["--book", "late.book", "--weak"]);
        assert_eq!(weak, solve(dir.path(), moves, &["--no-book", "--weak"]), "{moves}");
    }
}

/// The positions of `moves`, a position and its mirror image counted once.
fn count_after_symmetry(moves: &[String]) -> usize {
    let mut keys = std::collections::HashSet::new();
    for moves in moves {
        let board = Moves::board(Rules::Classic, moves).unwrap();
        let mirrored: String = moves.chars().map(|c| char::from(b'8' - (c as u8 - b'0'))).collect();
        let mirror = Moves::board(Rules::Classic, &mirrored).unwrap();
        keys.insert(board.key().min(mirror.key()));
    }
    keys.len()
}

#[test]
fn an_interrupted_build_resumes_from_its_progress_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["book", "--moves", LATE_ROOT, "--depth", "2", "--threads", "1", "--out", "late.book"];
    let (code, _, stderr) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    let whole = std::fs::read(dir.path().join("late.book")).unwrap();
    std::fs::remove_file(dir.path().join("late.book")).unwrap();
    // A progress file with two positions solved (one of them with a value
    // no search would give: the build must take it as given), the last line
    // cut short.
    let board = Moves::board(Rules::Classic, &format!("{LATE_ROOT}44")).unwrap();
    let key = board.key().min(maxconnect4::search::classic::mirror(board.key()));
    let header = format!("maxconnect4 book progress: rules classic, root '{LATE_ROOT}', depth 2");
    write(dir.path(), "late.book.progress", &format!("{header}\n{key} 5\n12"));
    let (code, _, stderr) = run_in(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("; 1 more were read from late.book.progress."), "{stderr}");
    let resumed = std::fs::read(dir.path().join("late.book")).unwrap();
    assert_eq!(resumed.len(), whole.len());
    assert_ne!(resumed, whole, "the value in the progress file was used");
    // A progress file of another build is refused, and left alone.
    write(dir.path(), "late.book.progress", "maxconnect4 book progress: rules classic, root '4', depth 2\n");
    check_error_in(dir.path(), &args, 1, "late.book.progress is the progress of another build");
    write(dir.path(), "late.book.progress", &format!("{header}\n12 x\n"));
    check_error_in(
        dir.path(),
        &args,
        1,
        "late.book.progress, line 2: expected 'KEY VALUE MOVE' (or 'KEY VALUE'), found '12 x'",
    );
}

/// The shipped book's file in the repository.
fn shipped_book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/classic.book")
}

/// The published scores of the benchmark sets' positions with at most
/// `stones` stones: those in `tests/data`, and those of every set in
/// `../shared` when it is there.
fn published(stones: usize) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("tests/data/connect4-benchmarks/Test_L1_R1")];
    for set in ["Test_L1_R2", "Test_L1_R3"] {
        let path = root.join("../shared/data/connect4-benchmarks").join(set);
        if path.exists() {
            files.push(path);
        }
    }
    let mut scores = Vec::new();
    for file in files {
        for line in read(&file).lines() {
            let mut words = line.split_whitespace();
            let (moves, score) = (words.next().unwrap(), words.next().unwrap());
            if moves.len() <= stones {
                scores.push((moves.to_owned(), score.to_owned()));
            }
        }
    }
    scores
}

#[test]
fn the_shipped_book_gives_the_published_scores() {
    let dir = tempfile::tempdir().unwrap();
    // The empty board: a win for the first player with the 21st stone (see issue 11).
    let (code, stdout, stderr) = run_in(dir.path(), &["solve", "--rules", "classic", "--moves", ""]);
    assert_eq!((code, stdout.as_str()), (0, "value 1 best 4\n"), "{stderr}");
    assert_eq!(nodes_searched(&stderr), 0);
    // The benchmark sets' positions the book holds (their smallest have 4 stones).
    let book = maxconnect4::modes::read_book(&shipped_book()).unwrap();
    let scores = published(book.depth() as usize);
    let batch: String = scores.iter().map(|(moves, _)| format!("{moves}\n")).collect();
    let expected: String = scores.iter().map(|(moves, score)| format!("{moves} {score}\n")).collect();
    write(dir.path(), "batch.txt", &batch);
    let (code, stdout, stderr) = run_in(dir.path(), &["solve", "--rules", "classic", "--batch", "batch.txt"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, expected);
    assert!(stderr.starts_with(&format!("Solved {} positions: 0 nodes", scores.len())), "{stderr}");
}

#[test]
fn damaged_or_foreign_books_are_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let whole = std::fs::read(shipped_book()).unwrap();
    std::fs::write(dir.path().join("cut.book"), &whole[..whole.len() - 3]).unwrap();
    let mut flipped = whole.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x10;
    std::fs::write(dir.path().join("flipped.book"), &flipped).unwrap();
    write(dir.path(), "board.txt", "0000000\n0000000\n0000000\n0000000\n0000000\n0000000\n1\n");
    std::fs::create_dir(dir.path().join("folder.book")).unwrap();
    // A well-made file whose values are wrong: every value changed to the
    // same win, so the root's disagrees with its children's, and the hash
    // made to match. The positions start after the header, the root's
    // move string (its length is byte 11) and the count of positions.
    let mut lying = whole.clone();
    let records = lying.len() - 8;
    let first = 16 + usize::from(lying[11]);
    let fnv1a = |bytes: &[u8]| {
        bytes
            .iter()
            .fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
    };
    for record in (first..records).step_by(8) {
        lying[record + 7] = 17;
    }
    let hash = fnv1a(&lying[..records]).to_le_bytes();
    lying[records..].copy_from_slice(&hash);
    std::fs::write(dir.path().join("lying.book"), &lying).unwrap();
    assert!(std::process::Command::new("mkfifo").arg(dir.path().join("pipe.book")).status().unwrap().success());
    let cases = [
        ("lying.book", "lying.book is not a valid opening book: corrupt: a position 0 moves from its root has the value 17, but its best move's is "),
        ("pipe.book", "cannot read the book pipe.book: it is a named pipe, not a regular file"),
        ("/dev/zero", "cannot read the book /dev/zero: it is a device, not a regular file"),
        ("cut.book", "cut.book is not a valid opening book: truncated or padded: "),
        ("flipped.book", "flipped.book is not a valid opening book: corrupt: the hash at the end does not match"),
        ("board.txt", "board.txt is not a valid opening book: not an opening book"),
        ("missing.book", "cannot read the book missing.book: "),
        ("folder.book", "cannot read the book folder.book: "),
    ];
    for (file, message) in cases {
        check_error_in(dir.path(), &["solve", "--rules", "classic", "--moves", "44", "--book", file], 1, message);
        check_error_in(
            dir.path(),
            &["one-move", "--rules", "classic", "--moves", "44", "out.txt", "4", "--book", file],
            1,
            message,
        );
    }
    assert!(!dir.path().join("out.txt").exists());
}

#[test]
fn bad_book_options_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 19] = [
        (&["one-move", "--moves", "44", "out.txt", "3", "--book", "x.book"], "--book needs --perfect or --book-moves"),
        (&["interactive", "in.txt", "human-next", "3", "--no-book"], "--no-book needs --perfect or --book-moves"),
        (&["one-move", "--moves", "44", "out.txt", "3", "--no-book"], "--no-book needs --perfect or --book-moves"),
        (&["one-move", "--moves", "44", "out.txt", "3", "--perfect", "--book-moves"], "cannot be used with"),
        (
            &["solve", "--rules", "classic", "--moves", "44", "--book", "x.book", "--no-book"],
            "the argument '--book <FILE>' cannot be used with '--no-book'",
        ),
        (&["book", "--depth", "43"], "invalid value '43' for '--depth <DEPTH>': too large: at most 42"),
        (&["book"], "the following required arguments were not provided"),
        (&["book", "--depth", "2", "--threads", "0"], "invalid value '0' for '--threads <N>'"),
        (&["book", "--depth", "2", "--moves", "1212121"], "the game is over there"),
        (&["book", "--depth", "1", "--moves", "1111111"], "move 7 plays column 1, which is full"),
        (
            &["book", "--depth", "2", "--moves", "76642741435573447574271232313253652656111"],
            "the board is full after 1 more moves",
        ),
        (&["book", "--depth", "36", "--rules", "max", "--moves", "1212121"], "the board is full after 35 more moves"),
        (&["book", "--depth", "1", "--merge", "a.progress", "--out", "b.book"], "cannot be used with"),
        (&["book", "--merge", "a.progress"], "--merge needs --out FILE, the book to write"),
        (&["book", "--depth", "1", "--list", "--shard", "0/2"], "cannot be used with"),
        (&["book", "--depth", "1", "--list", "--out", "b.book"], "cannot be used with"),
        (&["book", "--depth", "1", "--shard", "2/2"], "shards count from 0, so I is at most N - 1 (1)"),
        (&["book", "--merge", "--out", "b.book"], "a value is required for '--merge <PROGRESS>...'"),
        (&["book", "--depth", "1", "--rules", "max", "--moves", "8"], "invalid value '8' for '--moves <MOVES>'"),
    ];
    for (args, message) in cases {
        check_error_in(dir.path(), args, 2, message);
    }
    assert!(!dir.path().join("classic.book").exists());
}

#[test]
fn a_player_in_a_book_position_plays_from_the_book_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) =
        run_in(dir.path(), &["one-move", "--rules", "classic", "--moves", "", "next.txt", "12"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Player 1 plays column 4.\nSearched 0 nodes to depth 42 in "), "{stdout}");
    // Without the book the same move takes a search.
    let (code, stdout, stderr) =
        run_in(dir.path(), &["one-move", "--rules", "classic", "--moves", "", "next.txt", "6", "--no-book"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("Searched 0 nodes"), "{stdout}");
    // The Connect 4 Moderator's bot, moving first: column 4, at once.
    let output =
        maxconnect4(dir.path()).args(["bot", "moderator", "--depth", "1"]).write_stdin("1\n").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.lines().take(2).collect::<Vec<_>>(), ["p", "4"], "{stdout}");
}

#[test]
fn every_bot_plays_from_the_shipped_book() {
    // `bot moderator`, `bot coordinator` and `serve` ask a `Mover` for their moves.
    let mut mover = maxconnect4::protocol::Mover::new(Rules::Classic, 1 << 20).unwrap();
    let limits = maxconnect4::search::Limits { depth: 42, time_limit: None };
    let result = mover.choose(&Board::empty(), &limits).unwrap();
    assert_eq!((result.column.to_string().as_str(), result.nodes), ("4", 0));
}
