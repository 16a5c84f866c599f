//! How long `results` takes to merge a big class tournament's shard logs:
//! 101 players in a round robin from one opening (10,100 games) in SHARDS
//! logs, merged and published (standings, crosstable, ratings, chart and
//! `results.html`) as `maxconnect4 results` does.
//!
//! The games are random legal Max-Connect4 games with a turn record per
//! move, as large as real ones (about 4 KB a line); results do not look at
//! how good the moves are. The logs and their manifests are written to a
//! temporary folder first; only the merge is timed.
//!
//! Run: `cargo run --release --example merge_bench [PLAYERS] [SHARDS]`
//! (default 101 players, 10 shards).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use maxconnect4::board::{Board, Column};
use maxconnect4::player::Player;
use maxconnect4::referee::log::{encode_board, GameRecord, Scores, Side, TurnRecord};
use maxconnect4::referee::manifest::{Manifest, MANIFEST_FILE};
use maxconnect4::referee::merge;
use maxconnect4::referee::settings::Settings;
use maxconnect4::rules::{Outcome, Rules};

/// A small deterministic generator (xorshift64), so every run merges the
/// same games.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// The settings of every game: Max-Connect4, depth 5, 10 seconds a move.
fn settings() -> Settings {
    Settings { rules: Rules::Max, depth: 5, timeout: Duration::from_secs(10), clock: None, adjudication: None }
}

/// A random game between `red` and `green` from the opening `44`.
fn game(red: &Side, green: &Side, random: &mut Random) -> GameRecord {
    let opening = Board::empty().after(Column::from_number(4).unwrap()).after(Column::from_number(4).unwrap());
    let mut board = opening;
    let (mut moves, mut turns) = (String::new(), Vec::new());
    while !board.is_full() {
        let legal: Vec<Column> = board.legal_columns().collect();
        let column = legal[random.below(legal.len())];
        let player = board.to_move();
        board.play(column);
        moves.push_str(&column.number().to_string());
        let wall = 0.001 * random.below(2_000) as f64;
        turns.push(TurnRecord {
            player,
            column: Some(column.number()),
            wall,
            cpu: Some(wall * 0.9),
            ending: Some("exit status 0".to_owned()),
            clock: None,
        });
    }
    let score = Scores { red: board.score(Player::One), green: board.score(Player::Two) };
    let result = match score.red.cmp(&score.green) {
        std::cmp::Ordering::Greater => Outcome::Win(Player::One),
        std::cmp::Ordering::Less => Outcome::Win(Player::Two),
        std::cmp::Ordering::Equal => Outcome::Draw,
    };
    GameRecord {
        id: format!("44+{}+{}", red.name, green.name),
        red: red.clone(),
        green: green.clone(),
        settings: settings(),
        start: encode_board(&opening),
        opening: Some("44".to_owned()),
        moves,
        score,
        result,
        forfeit: None,
        adjudicated: None,
        turns,
    }
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|arg| arg.parse().expect("whole numbers")).collect();
    let players = args.first().copied().unwrap_or(101);
    let shards = args.get(1).copied().unwrap_or(10).max(1);
    let folder = tempfile::tempdir().expect("a temporary folder");
    let sides: Vec<Side> = (0..players)
        .map(|index| Side {
            name: format!("student{index:03}"),
            command: format!("python3 student{index:03}.py {{in}} {{out}}"),
        })
        .collect();
    let manifest = Manifest::new(sides.clone(), vec!["44".to_owned()], settings(), Vec::new(), sides[0].name.clone());
    let mut lines = vec![String::new(); shards];
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    let mut index = 0;
    for red in &sides {
        for green in sides.iter().filter(|green| green.name != red.name) {
            let line = serde_json::to_string(&game(red, green, &mut random)).expect("a record serializes");
            lines[index % shards].push_str(&line);
            lines[index % shards].push('\n');
            index += 1;
        }
    }
    let mut logs: Vec<PathBuf> = Vec::new();
    let mut bytes = 0;
    for (shard, text) in lines.iter().enumerate() {
        let directory = folder.path().join(format!("shard-{shard}"));
        std::fs::create_dir_all(&directory).expect("a shard folder");
        manifest.write(&directory.join(MANIFEST_FILE)).expect("the manifest is written");
        std::fs::write(directory.join("games.jsonl"), text).expect("the log is written");
        bytes += text.len();
        logs.push(directory.join("games.jsonl"));
    }
    println!("{index} games by {players} players in {shards} logs, {:.1} MB", bytes as f64 / 1e6);

    let out = folder.path().join("merged");
    let mut report = Vec::new();
    let started = Instant::now();
    merge::results(&logs, &out, None, &mut report, &mut std::io::stderr()).unwrap_or_else(|error| panic!("{error}"));
    let elapsed = started.elapsed();
    let first_line = String::from_utf8_lossy(&report).lines().next().unwrap_or_default().to_owned();
    println!("{first_line}");
    println!("merged and published in {:.2} s", elapsed.as_secs_f64());
}
