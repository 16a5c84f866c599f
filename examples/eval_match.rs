//! Two builds of the program against each other at equal depth: all 49
//! two-ply openings, each played with both colours, at each depth asked for,
//! with `maxconnect4 tournament`; then a table of wins, draws and losses per
//! depth and colour, from the tournaments' logs.
//!
//! The evaluation is compiled in (its weights fill the board's line tables),
//! so two evaluations are two executables: build the old one from the
//! revision to compare with, for example `git archive 3cbb54a | tar -x -C
//! /tmp/old && cargo build --release --manifest-path /tmp/old/Cargo.toml`
//! (the hand-set evaluation; `reports/eval_match.md` has the figures).
//!
//! Run: `cargo run --release --example eval_match -- NEW OLD OUT DEPTH...`,
//! with NEW and OLD the two executables and OUT the directory for the
//! tournaments (one per depth, `OUT/depth-D`; an interrupted run resumes).
//! Prints the tables in Markdown.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context};

fn usage() -> ! {
    eprintln!("usage: eval_match NEW OLD OUT DEPTH...");
    std::process::exit(2);
}

fn main() -> anyhow::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [new, old, out, depths @ ..] = arguments.as_slice() else { usage() };
    if depths.is_empty() {
        usage();
    }
    let Ok(depths) = depths.iter().map(|depth| depth.parse::<u32>()).collect::<Result<Vec<_>, _>>() else { usage() };
    println!("| depth | new as | games | new wins | draws | new losses | new's points |");
    println!("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    for depth in depths {
        let dir = Path::new(out).join(format!("depth-{depth}"));
        let player = |name: &str, program: &str| format!("{name}={program} one-move {{in}} {{out}} {depth}");
        let status = Command::new(new)
            .arg("tournament")
            .args(["--player", &player("new", new), "--player", &player("old", old)])
            .args(["--depth", &depth.to_string(), "--jobs", "2", "--no-sandbox", "--timeout", "600"])
            .arg("--out")
            .arg(&dir)
            // The tournament's own report goes to stderr; stdout is the tables.
            .stdout(std::io::stderr())
            .status()
            .with_context(|| format!("cannot run {new}"))?;
        if !status.success() {
            bail!("the tournament at depth {depth} failed: {status}");
        }
        let log = dir.join("games.jsonl");
        let text = std::fs::read_to_string(&log).with_context(|| format!("cannot read {}", log.display()))?;
        // By the new program's colour: wins, draws, losses.
        let mut tally = [[0u32; 3]; 2];
        for (number, line) in text.lines().enumerate() {
            let game: serde_json::Value =
                serde_json::from_str(line).with_context(|| format!("{}:{}: not JSON", log.display(), number + 1))?;
            let new_colour = if game["red"]["name"] == "new" { 0 } else { 1 };
            let winner = match game["result"].as_str() {
                Some("red") => Some(0),
                Some("green") => Some(1),
                Some("draw") => None,
                other => bail!("{}:{}: unexpected result {other:?}", log.display(), number + 1),
            };
            let column = match winner {
                Some(colour) if colour == new_colour => 0,
                None => 1,
                Some(_) => 2,
            };
            tally[new_colour][column] += 1;
        }
        for (colour, [wins, draws, losses]) in ["red (first)", "green (second)"].iter().zip(tally) {
            let games = wins + draws + losses;
            let points = f64::from(2 * wins + draws) / f64::from(2 * games.max(1)) * 100.0;
            println!("| {depth} | {colour} | {games} | {wins} | {draws} | {losses} | {points:.1}% |");
        }
        let [wins, draws, losses] = [0, 1, 2].map(|i| tally[0][i] + tally[1][i]);
        let games = wins + draws + losses;
        let points = f64::from(2 * wins + draws) / f64::from(2 * games.max(1)) * 100.0;
        println!("| {depth} | both | {games} | {wins} | {draws} | {losses} | {points:.1}% |");
    }
    Ok(())
}
