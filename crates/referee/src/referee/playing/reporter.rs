//! What a tournament tells the person who runs it while it plays, on the
//! writer its caller gives (standard error, from the command line):
//! warnings, and a line for each game as it ends, under a bar of the games
//! played when that is a terminal. Elsewhere (a batch job, `nohup`, CI)
//! each line says how many games of how many are done, as cutechess's do,
//! so that a class tournament of a quarter of an hour is never silent. The
//! results go to the tournament's writer, not here.

use std::io::Write;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::referee::log::GameRecord;
use maxconnect4_game::player::Player;
use maxconnect4_game::printable::{NAME, printable};

/// The tournament's reporter.
pub struct Reporter<'a> {
    /// Where its lines go.
    errors: &'a mut dyn Write,
    /// Whether `errors` is a terminal, where the bar is drawn (on standard
    /// error, as the bar draws itself).
    terminal: bool,
    /// Shown from the first game on, on a terminal.
    bar: Option<ProgressBar>,
    /// Elsewhere, the games done and in all, from the first game on.
    count: Option<(usize, usize)>,
}

impl<'a> Reporter<'a> {
    /// A reporter writing to `errors`, which is a terminal if `terminal`.
    pub fn new(errors: &'a mut dyn Write, terminal: bool) -> Reporter<'a> {
        Reporter { errors, terminal, bar: None, count: None }
    }

    /// A warning, on a line of its own, shown whether it goes to a terminal
    /// or not.
    pub fn warning(&mut self, warning: &dyn std::fmt::Display) {
        crate::referee::error::warn(self.errors, warning);
    }

    /// The games begin: `played` of `total` were played before.
    pub fn start(&mut self, total: usize, played: usize) {
        if !self.terminal {
            self.count = Some((played, total));
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{wide_bar} {pos}/{len} games, {elapsed} elapsed, about {eta} left")
                .expect("a valid progress template"),
        );
        bar.set_position(played as u64);
        self.bar = Some(bar);
    }

    /// A game ended, and is in the log.
    pub fn played(&mut self, record: &GameRecord) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            bar.println(describe(record));
        } else if let Some((done, total)) = &mut self.count {
            *done += 1;
            let _ = writeln!(self.errors, "Finished game {done} of {total}: {}", describe(record));
        }
    }

    /// Every game is played: the bar goes.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        self.count = None;
    }
}

/// A game's result in one line, for the progress display; names as
/// `printable` shows them.
fn describe(record: &GameRecord) -> String {
    let name = |colour| printable(&record.side(colour).name, NAME);
    let names = format!("{} (red) vs {} (green)", name(Player::One), name(Player::Two));
    let opening = record.opening.as_deref().filter(|opening| !opening.is_empty()).unwrap_or("-");
    match &record.forfeit {
        Some(forfeit) => {
            format!("{opening} {names}: {} forfeits ({})", name(forfeit.player), printable(&forfeit.verdict, NAME))
        }
        None => match &record.adjudicated {
            Some(adjudicated) => {
                let result =
                    adjudicated.result.winner().map_or("a draw".to_owned(), |winner| format!("{} wins", name(winner)));
                format!("{opening} {names}: adjudicated after {}, {result}", counted(adjudicated.after, "move"))
            }
            None => format!("{opening} {names}: {} to {}", record.score.red, record.score.green),
        },
    }
}

/// `count` and `noun`, plural unless the count is one: `1 opening`, `2 games`.
pub(super) fn counted(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::log;
    use maxconnect4_game::rules::Outcome;

    #[test]
    fn an_adjudicated_game_says_so_on_its_progress_line() {
        let line = r#"{"id":"44+a+b","red":{"name":"a","command":"self"},"green":{"name":"b","command":"self"},
            "rules":"classic","depth":1,"timeout":1.0,"adjudication":100000,"start":"","opening":"44","moves":"3456",
            "score":{"red":0,"green":0},"result":"green","forfeit":null,"adjudicated":{"after":4,"result":"green"},
            "turns":[]}"#;
        let mut record: GameRecord = serde_json::from_str(line).unwrap();
        assert_eq!(describe(&record), "44 a (red) vs b (green): adjudicated after 4 moves, b wins");
        record.adjudicated = Some(log::Adjudicated { after: 1, result: Outcome::Draw });
        assert_eq!(describe(&record), "44 a (red) vs b (green): adjudicated after 1 move, a draw");
        record.adjudicated = None;
        assert_eq!(describe(&record), "44 a (red) vs b (green): 0 to 0");
    }
}
