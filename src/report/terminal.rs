//! What the report command says on the terminal when it is done: what it
//! measured and wrote, each program's start-up and cost per node, and on
//! standard error what a student must not miss (a failed run's cause, a
//! node count that is missing or not a count), so that nothing is learnt
//! only from the files.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::findings::{self, AlgorithmSummary};
use super::markdown::REPORT_FILE;
use super::measure::Algorithm;
use super::timings::{CellResult, Timings};
use super::units;
use super::Error;

/// Says how many searches were measured, skipped and failed, in how long,
/// and every file written (`names`) in `directory`; for programs, a table
/// of each one's start-up and cost per node.
///
/// # Errors
/// When `out` cannot be written.
pub fn summary(
    timings: &Timings,
    directory: &Path,
    names: &[&str],
    elapsed: Duration,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let count = |f: fn(&CellResult) -> bool| timings.cells.iter().filter(|cell| f(&cell.outcome)).count();
    let failed = count(|outcome| matches!(outcome, CellResult::Failed { .. }));
    let failed = if failed > 0 { format!(", {failed} failed") } else { String::new() };
    writeln!(
        out,
        "Measured {} searches ({} skipped over the budget{failed}) in {:.1} s and wrote, in {}:",
        count(|outcome| matches!(outcome, CellResult::Measured(_))),
        count(|outcome| matches!(outcome, CellResult::Skipped { .. })),
        elapsed.as_secs_f64(),
        directory.display(),
    )?;
    for name in names {
        writeln!(out, "  {name}")?;
    }
    if timings.runs.is_some() {
        startup_table(timings, &findings::summarize(timings), out)?;
    }
    Ok(())
}

/// Each program's start-up, its cost per node once the start-up is taken
/// out, and how many runs that rests on; each program by the name REPORT.md
/// and the charts give it.
fn startup_table(timings: &Timings, summaries: &[AlgorithmSummary], out: &mut dyn Write) -> std::io::Result<()> {
    let names: Vec<&str> = summaries.iter().map(|summary| timings.name(summary.algorithm)).collect();
    let width = names.iter().map(|name| name.chars().count()).chain([12]).max().unwrap_or(12);
    writeln!(out, "{:<width$} {:>10} {:>10}  cost per node fitted on", "program", "start-up", "per node")?;
    for (summary, name) in summaries.iter().zip(names) {
        let startup = summary.startup.map_or_else(|| "failed".to_owned(), units::seconds);
        let cost = summary.seconds_per_node.map_or_else(|| "–".to_owned(), units::per_node);
        let runs = if summary.cost_runs == 1 { "run" } else { "runs" };
        let trust = match (summary.flat_count, summary.seconds_per_node, summary.cost_trusted) {
            (true, _, _) => " (the count does not grow with depth)",
            (false, None, _) => "",
            (false, Some(_), true) => " that searched at least as long as it took to start",
            (false, Some(_), false) => ", none searching as long as it took to start: not to be trusted",
        };
        writeln!(out, "{name:<width$} {startup:>10} {cost:>10}  {} {runs}{trust}", summary.cost_runs)?;
    }
    Ok(())
}

/// Warns on `err` of what a reader must not miss: each program's first
/// failed run and why (when it also played), a start-up that could not be
/// measured, and a node count missing or not growing with depth.
///
/// # Errors
/// When `err` cannot be written.
pub fn warnings(timings: &Timings, err: &mut dyn Write) -> std::io::Result<()> {
    let Some(runs) = &timings.runs else { return Ok(()) };
    for program in &runs.programs {
        let algorithm = program.algorithm;
        let (who, measured) = (timings.prose(algorithm), timings.measurements(algorithm).count());
        if measured == 0 {
            continue; // An error says it, with the cause.
        }
        let failures = failures(timings, algorithm);
        if let Some((position, depth, reason)) = failures.first() {
            writeln!(
                err,
                "warning: {who} failed {} of its runs; the first, on {position} at depth {depth}: {reason}",
                failures.len()
            )?;
        }
        if let Err(reason) = &program.startup {
            writeln!(err, "warning: the start-up of {who} could not be measured: {reason}")?;
        }
        if let Some((position, series)) = findings::count_does_not_grow(timings, algorithm) {
            let counts: Vec<String> = series.iter().map(|&(_, nodes)| nodes.to_string()).collect();
            writeln!(
                err,
                "warning: the node count of {who} does not grow with depth: `{}` read {} at depths {} to {} on \
                 {position}; a search explores more nodes with each ply, so this is not its count ({REPORT_FILE} \
                 shows a line to print)",
                runs.nodes_pattern,
                counts.join(", "),
                series[0].0,
                series[series.len() - 1].0,
            )?;
        } else if !timings.counts_nodes(algorithm) {
            writeln!(
                err,
                "warning: {who} printed no node count matching `{}`: only its time against depth is reported \
                 ({REPORT_FILE} shows a line to print)",
                runs.nodes_pattern
            )?;
        }
    }
    Ok(())
}

/// Every failed run of `algorithm`: position, depth and why, in the order
/// of the cells.
fn failures(timings: &Timings, algorithm: Algorithm) -> Vec<(&str, u32, &str)> {
    timings
        .cells
        .iter()
        .filter(|cell| cell.algorithm == algorithm)
        .filter_map(|cell| match &cell.outcome {
            CellResult::Failed { reason } => {
                Some((timings.positions[cell.position].label.as_str(), cell.depth, reason.as_str()))
            }
            CellResult::Measured(_) | CellResult::Skipped { .. } => None,
        })
        .collect()
}

/// Fails when a program played no move at all: the report is written, but
/// has nothing to say of it.
///
/// # Errors
/// Names the first such program and its first failure's cause.
pub fn check_every_series_played(timings: &Timings, directory: &Path) -> Result<(), Error> {
    let Some(runs) = &timings.runs else { return Ok(()) };
    for program in &runs.programs {
        let algorithm = program.algorithm;
        if timings.measurements(algorithm).count() > 0 {
            continue;
        }
        let first = failures(timings, algorithm)
            .first()
            .map(|(position, depth, reason)| format!("on {position} at depth {depth}: {reason}"))
            .or_else(|| program.startup.as_ref().err().map(ToString::to_string))
            .unwrap_or_else(|| "every run was skipped".to_owned());
        let (program, report) = (timings.prose(algorithm), directory.join(REPORT_FILE));
        return Err(Error::NeverPlayed { algorithm, program, first, report });
    }
    Ok(())
}
