//! The timing report: CPU time against nodes explored for every search
//! algorithm, from a set of positions, at every depth up to a limit, written
//! out as a CSV file, charts and a Markdown report that says what the numbers
//! mean. The assignment asks for these measurements; this makes them one
//! reproducible command.
//!
//! The pieces: [`measure`] times one search, [`timings`] holds every search
//! of a report, [`findings`] fits the figures,
//! [`timing_csv`], [`chart`] and [`markdown`] render them ([`units`] writes
//! the numbers, [`names`] names the programs, [`trust`] flags what is not to
//! be trusted, alike in each), [`machine`] says where they were taken; [`program`] times
//! a one-move program instead, run as the referee runs one (through
//! `contain::turn` and `protocol::one_move`, which both share). What stops a
//! report is an [`Error`]. This module reads
//! the positions, runs every cell with a progress bar, and writes the files
//! only once all of them are made, each atomically, so a failure leaves an
//! earlier report as it was.

pub mod chart;
pub mod error;
pub mod findings;
pub mod machine;
pub mod markdown;
pub mod measure;
pub mod names;
pub mod positions;
pub mod program;
pub mod startup;
pub mod terminal;
pub mod timing_csv;
pub mod timings;
pub mod trust;
pub mod units;
pub mod version;

use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::whole;

pub use error::{Error, RunError};

use machine::Machine;
use markdown::REPORT_FILE;
use measure::Algorithm;
use program::ProgramOptions;
use timing_csv::CSV_FILE;
use timings::Timings;

/// Where the report goes by default.
pub const DEFAULT_OUT: &str = "timing_report";
/// The deepest search by default.
pub const DEFAULT_MAX_DEPTH: u32 = 20;
/// A cell predicted to take more CPU seconds than this is skipped by default
/// (as typed on the command line).
pub const DEFAULT_BUDGET: &str = "2";

/// What to measure and where to write it.
#[derive(Clone, Debug)]
pub struct Options {
    /// Board files to search from; empty for the default ([`positions::load`]).
    pub positions: Vec<PathBuf>,
    /// Depths 1 to this are searched.
    pub max_depth: u32,
    /// The directory the report is written to, created if need be.
    pub out: PathBuf,
    /// A search predicted to take more CPU time than this is skipped.
    pub budget: Duration,
    /// The command line that asked for this report, for its header.
    pub command: String,
    /// The one-move program to time instead of this program's searches.
    pub program: Option<ProgramOptions>,
}

/// Measures, renders and writes a whole report as `options` say, then prints
/// one line saying where it is to `out`.
///
/// # Errors
/// When a position file cannot be read or parsed, every position is a
/// finished game, the output directory cannot be created, or a file cannot be
/// written. Earlier report files are then left as they were.
pub fn run(options: &Options, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Error> {
    let started = Instant::now();
    let (positions, source) = positions::load(&options.positions)?;
    if positions.iter().all(|position| position.board.is_full()) {
        return Err(Error::NothingToSearch);
    }
    // Made where named, in a folder that exists, as every output is; removed
    // again if nothing could be written in it.
    let made = whole::make_folder(&options.out)?;
    let written = measure_and_write(options, (positions, source), started, out, err);
    if written.is_err() && made {
        // Only an empty folder goes: whatever a failure wrote stays to be read.
        let _ = std::fs::remove_dir(&options.out);
    }
    written
}

/// [`run`]'s measuring and writing, into `options.out`, which exists.
fn measure_and_write(
    options: &Options,
    (positions, source): (Vec<timings::LabelledBoard>, positions::Source),
    started: Instant,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    check_writable(&options.out, options.program.as_ref())?;
    let machine = Machine::probe();
    let (series, startup_runs) = match &options.program {
        Some(program) => (1 + u64::from(program.compare), startup::STARTUP_RUNS as u64),
        None => (Algorithm::ALL.len() as u64, 0),
    };
    let depths: u64 = positions.iter().map(|p| p.depths(options.max_depth).count() as u64).sum();
    let cells = series * (startup_runs + depths);
    let progress = progress_bar(cells);
    let (timings, output) = match &options.program {
        Some(program) => {
            let (max_depth, budget) = (options.max_depth, options.budget);
            let measured = program::measure(&positions, max_depth, budget, program, &options.out, &progress, err);
            progress.finish_and_clear();
            let measured = measured.map_err(Error::Run)?;
            let (series, cells, runs) = (measured.series, measured.cells, Some(measured.runs));
            let clock_overhead = Duration::ZERO;
            (Timings { positions, series, cells, max_depth, budget, clock_overhead, runs }, measured.output)
        }
        None => (Timings::measure(positions, options.max_depth, options.budget, &progress), Vec::new()),
    };
    progress.finish_and_clear();

    let mut files: Vec<(String, Vec<u8>)> = vec![(CSV_FILE.to_owned(), timing_csv::write(&timings)?)];
    for chart in chart::Chart::ALL {
        let (png, svg) = chart.draw(&timings, &machine)?;
        files.push((format!("{}.png", chart.file_stem()), png));
        files.push((format!("{}.svg", chart.file_stem()), svg.into_bytes()));
    }
    let context = markdown::Context {
        machine: &machine,
        command: &options.command,
        elapsed: started.elapsed(),
        positions: source,
    };
    files.push((REPORT_FILE.to_owned(), markdown::write(&timings, &context).into_bytes()));
    files.extend(output);

    let staged = files
        .iter()
        .map(|(name, contents)| whole::stage(&options.out.join(name), contents))
        .collect::<Result<Vec<_>, _>>()?;
    whole::put_all_in_place(staged)?;
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    terminal::summary(&timings, &options.out, &names, started.elapsed(), out).map_err(Error::Output)?;
    terminal::warnings(&timings, err).map_err(Error::Output)?;
    terminal::check_every_series_played(&timings, &options.out)
}

/// Every file the report writes, by name: with `program`, also what each
/// program printed.
fn file_names(program: Option<&ProgramOptions>) -> Vec<String> {
    let charts =
        chart::Chart::ALL.iter().flat_map(|chart| ["png", "svg"].map(|ext| format!("{}.{ext}", chart.file_stem())));
    let outputs = program.into_iter().flat_map(|program| {
        let compared = program.compare.then_some(Algorithm::Program);
        std::iter::once(Algorithm::Player).chain(compared).map(program::output_file)
    });
    [CSV_FILE.to_owned(), REPORT_FILE.to_owned()].into_iter().chain(charts).chain(outputs).collect()
}

/// Checks, before a minute of measuring, that every report file can be
/// written in `directory`: nothing but a regular file at each name, and the
/// directory writable (a file is staged there and dropped).
fn check_writable(directory: &Path, program: Option<&ProgramOptions>) -> Result<(), Error> {
    for name in file_names(program) {
        whole::check(&directory.join(name))?;
    }
    drop(whole::stage(&directory.join(REPORT_FILE), b"")?);
    Ok(())
}

/// `maxconnect4` and `args`, quoted for a POSIX shell where need be: the
/// command as a reader can type it again.
#[must_use]
pub fn command_line(args: impl IntoIterator<Item = String>) -> String {
    let plain = |arg: &str| {
        !arg.is_empty()
            && arg.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '=' | ':' | ','))
    };
    let mut line = "maxconnect4".to_owned();
    for arg in args {
        line.push(' ');
        if plain(&arg) {
            line.push_str(&arg);
        } else {
            line.push_str(&format!("'{}'", arg.replace('\'', r"'\''")));
        }
    }
    line
}

/// A progress bar on stderr, hidden when stderr is not a terminal.
fn progress_bar(cells: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // Under 80 columns with the longest message: a file name, an algorithm, a depth.
    let style = ProgressStyle::with_template("{elapsed:>3} [{bar:16}] {pos}/{len} {wide_msg}")
        .expect("the template is valid")
        .progress_chars("=> ");
    ProgressBar::with_draw_target(Some(cells), ProgressDrawTarget::stderr()).with_style(style)
}
