//! The progress line: while a long search runs, one line on stderr with the
//! depth reached, the nodes visited, the time so far and the best move, and
//! before a search that will plainly take long, a warning with an estimate.
//! A long run of many jobs (a book's build) has a line of its own: the jobs
//! done of all, the rate, and the time left at that rate.
//! Only on a terminal: when stdout or stderr is a file or a pipe, nothing is
//! shown, so scripted runs print exactly what they did before.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::board::Board;
use crate::search::{Engine, Limits, Progress};

/// The line appears only for searches longer than this.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// How often the line is redrawn.
const REDRAW_EVERY: Duration = Duration::from_millis(200);

/// A search predicted to take longer than this is announced first.
const WARN_ABOVE_SECONDS: f64 = 20.0;

/// The probe that predicts a search's time stops at an iteration of this many nodes.
const PROBE_NODES: u64 = 300_000;

/// Whether progress is shown: stdout and stderr are both terminals.
#[must_use]
pub fn wanted() -> bool {
    std::io::stdout().is_terminal() && std::io::stderr().is_terminal()
}

/// Runs `search` while the progress line shows `progress` (when
/// [`wanted`], and once the search has lasted [`SHOW_AFTER`]), and erases
/// the line when the search ends.
pub fn while_searching<T>(progress: &Arc<Progress>, search: impl FnOnce() -> T) -> T {
    if !wanted() {
        return search();
    }
    let (done, finished) = mpsc::channel::<()>();
    let progress = Arc::clone(progress);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let start = Instant::now();
            // The search ended first (or panicked, dropping the sender).
            if finished.recv_timeout(SHOW_AFTER) != Err(RecvTimeoutError::Timeout) {
                return;
            }
            let bar = bar(progress, start);
            let _ = finished.recv();
            bar.finish_and_clear();
        });
        let result = search();
        // The display thread ends when the sender is dropped or sent to.
        let _ = done.send(());
        result
    })
}

/// The progress line on stderr, redrawn every [`REDRAW_EVERY`] from
/// `progress`, for a search that started at `start`.
fn bar(progress: Arc<Progress>, start: Instant) -> ProgressBar {
    let style = ProgressStyle::with_template("{line}").expect("the template is valid").with_key(
        "line",
        move |_: &ProgressState, out: &mut dyn std::fmt::Write| {
            let _ = out.write_str(&line(&progress, start.elapsed()));
        },
    );
    let term = console::Term::stderr();
    // indicatif erases only the lines it drew: the line starts clean,
    // whatever was left on the terminal's current line.
    let _ = term.clear_line();
    // Not indicatif's stderr target, which draws nothing when TERM is unset
    // or `dumb`: whether to draw is [`wanted`]'s to say.
    let target = ProgressDrawTarget::term_like(Box::new(term));
    let bar = ProgressBar::with_draw_target(None, target).with_style(style);
    bar.enable_steady_tick(REDRAW_EVERY);
    bar
}

/// `depth 12  3456789 nodes  4.2 s  best 4`; only what the search has
/// told so far (nothing but that it runs, before its first figures).
fn line(progress: &Progress, elapsed: Duration) -> String {
    let depth = match progress.depth() {
        0 => "searching".to_owned(),
        depth => format!("depth {depth}"),
    };
    let nodes = match progress.nodes() {
        0 => String::new(),
        nodes => format!("  {nodes} nodes"),
    };
    let best = progress.best().map_or_else(String::new, |column| format!("  best {column}"));
    format!("{depth}{nodes}  {:.1} s{best}", elapsed.as_secs_f64())
}

/// The line of a run of many jobs on a terminal ([`wanted`]): `solved 12 of
/// 48 positions  3.1 per second  about 4 minutes left`, redrawn every
/// [`REDRAW_EVERY`] until [`finish`](Counter::finish). The rate and the
/// estimate count only the jobs of this run, not those done before it (a
/// resumed build's).
pub struct Counter {
    count: Arc<Count>,
    bar: Option<ProgressBar>,
}

/// What a [`Counter`] shows, shared with its drawing.
struct Count {
    /// `solved ... positions`: the verb and the noun.
    verb: String,
    noun: String,
    total: u64,
    before: u64,
    done: AtomicU64,
    start: Instant,
}

impl Counter {
    /// A counter of `total` jobs, `before` of them done by an earlier run;
    /// shown only when [`wanted`].
    #[must_use]
    pub fn new(verb: &str, noun: &str, total: u64, before: u64) -> Counter {
        let count = Arc::new(Count {
            verb: verb.to_owned(),
            noun: noun.to_owned(),
            total,
            before,
            done: AtomicU64::new(before),
            start: Instant::now(),
        });
        let bar = wanted().then(|| {
            let shown = Arc::clone(&count);
            let style = ProgressStyle::with_template("{line}").expect("the template is valid").with_key(
                "line",
                move |_: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let done = shown.done.load(Ordering::Relaxed);
                    let _ = out.write_str(&count_line(&shown, done, shown.start.elapsed()));
                },
            );
            let term = console::Term::stderr();
            let _ = term.clear_line();
            let bar =
                ProgressBar::with_draw_target(None, ProgressDrawTarget::term_like(Box::new(term))).with_style(style);
            bar.enable_steady_tick(REDRAW_EVERY);
            bar
        });
        Counter { count, bar }
    }

    /// One more job done.
    pub fn add_one(&self) {
        self.count.done.fetch_add(1, Ordering::Relaxed);
    }

    /// Erases the line.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The counter's line when `done` jobs are done after `elapsed`.
fn count_line(count: &Count, done: u64, elapsed: Duration) -> String {
    let Count { verb, noun, total, before, .. } = count;
    let mut line = format!("{verb} {done} of {total} {noun}");
    let seconds = elapsed.as_secs_f64();
    let this_run = done.saturating_sub(*before);
    if this_run == 0 || seconds <= 0.0 {
        line.push_str(&format!("  {seconds:.0} s"));
        return line;
    }
    let rate = this_run as f64 / seconds;
    if rate >= 1.0 {
        line.push_str(&format!("  {rate:.1} per second"));
    } else if rate * 60.0 >= 1.0 {
        line.push_str(&format!("  {:.1} per minute", rate * 60.0));
    } else {
        line.push_str(&format!("  {:.1} per hour", rate * 3600.0));
    }
    let left = total.saturating_sub(done) as f64 / rate;
    if done < *total {
        line.push_str(&format!("  {} left", human_duration(left)));
    }
    line
}

/// On a terminal, before a search to `limits` without a time limit, says
/// so when it will plainly take long: a quick probe searches until an
/// iteration visits [`PROBE_NODES`], and the growth of its last iterations
/// is carried on to the depth asked for. The probe's table is cleared, so
/// the search itself runs as it would have.
pub fn warn_if_long(engine: &mut Engine, board: &Board, limits: &Limits, err: &mut dyn Write) {
    let depth = limits.depth.min(board.empty_cells());
    if !wanted() || limits.time_limit.is_some() || depth < 8 {
        return;
    }
    let start = Instant::now();
    let mut counts = Vec::new();
    for probe_depth in 1..=depth {
        let Some(result) = engine.search(board, &Limits::depth(probe_depth)) else { return };
        counts.push(result.nodes);
        if result.nodes >= PROBE_NODES || probe_depth == depth {
            break;
        }
    }
    let probe_seconds = start.elapsed().as_secs_f64();
    engine.clear();
    let probed = counts.len();
    if probed == depth as usize || probed < 3 {
        return;
    }
    let nodes: u64 = counts.iter().sum();
    // Nodes per ply, over two plies so that odd and even depths even out.
    let growth = (counts[probed - 1] as f64 / counts[probed - 3] as f64).sqrt().max(1.5);
    let predicted_nodes = counts[probed - 1] as f64 * growth.powi(depth as i32 - probed as i32);
    let seconds = predicted_nodes / (nodes as f64 / probe_seconds.max(1e-6));
    if seconds > WARN_ABOVE_SECONDS {
        let _ = writeln!(
            err,
            "A search to depth {depth} from here may take {} (a rough estimate); --time-limit caps it.",
            human_duration(seconds)
        );
    }
}

/// Seconds as people say them: `40 seconds`, `25 minutes`, `3 hours`, `2 days`, `many years`.
fn human_duration(seconds: f64) -> String {
    const UNITS: [(&str, f64); 4] = [("seconds", 1.0), ("minutes", 60.0), ("hours", 3600.0), ("days", 86400.0)];
    if seconds > 365.0 * 86400.0 {
        return "more than a year".to_owned();
    }
    let (name, size) = UNITS.iter().rev().find(|(_, size)| seconds >= 2.0 * size).copied().unwrap_or(UNITS[0]);
    format!("about {:.0} {name}", seconds / size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_shows_the_rate_and_the_time_left_of_this_run() {
        let count = |before| Count {
            verb: "solved".to_owned(),
            noun: "positions".to_owned(),
            total: 48,
            before,
            done: AtomicU64::new(before),
            start: Instant::now(),
        };
        let second = Duration::from_secs(1);
        assert_eq!(count_line(&count(0), 0, 3 * second), "solved 0 of 48 positions  3 s");
        assert_eq!(
            count_line(&count(0), 12, 4 * second),
            "solved 12 of 48 positions  3.0 per second  about 12 seconds left"
        );
        // 8 solved before this run: 4 in 120 s is 2 a minute, 36 left take 18 minutes.
        assert_eq!(
            count_line(&count(8), 12, 120 * second),
            "solved 12 of 48 positions  2.0 per minute  about 18 minutes left"
        );
        assert_eq!(count_line(&count(0), 48, 7200 * second), "solved 48 of 48 positions  24.0 per hour");
    }

    #[test]
    fn durations_read_as_people_say_them() {
        for (seconds, expected) in [
            (40.0, "about 40 seconds"),
            (150.0, "about 2 minutes"),
            (3.0 * 3600.0, "about 3 hours"),
            (5.0 * 86400.0, "about 5 days"),
            (1e12, "more than a year"),
        ] {
            assert_eq!(human_duration(seconds), expected);
        }
    }
}
