//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

use maxconnect4::board::{Board, Column};

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

/// Asserts two texts are equal, printing both in full when they differ.
#[track_caller]
pub fn assert_text(actual: &str, expected: &str) {
    if actual != expected {
        panic!("text differs\n--- expected\n{expected}\n--- actual\n{actual}\n---");
    }
}
