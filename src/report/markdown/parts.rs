//! What both the report of this program's searches and the report of a
//! player's program write: the context of a run, the machine's table, and
//! small pieces of prose.

use std::fmt::Write as _;
use std::time::Duration;

use crate::report::machine::Machine;
use crate::report::positions::Source;
use crate::report::{units, version};

/// What the report says besides the measurements.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub machine: &'a Machine,
    /// The command line that produced the report.
    pub command: &'a str,
    /// Wall-clock time of the whole run.
    pub elapsed: Duration,
    /// Where the positions came from.
    pub positions: Source,
}

/// Where the positions came from, as words after "positions".
pub(super) const fn positions_source(source: Source) -> &'static str {
    match source {
        Source::Named => "",
        Source::InputFiles => " (every file in `input_files/`)",
        Source::BuiltIn => " (the course's, built into the program, as there is no `input_files/` here)",
    }
}

/// The machine and the command, as a table.
pub(super) fn facts(text: &mut String, context: &Context, more: &[(String, String)]) {
    let seconds = |duration: Duration| units::seconds(duration.as_secs_f64());
    let machine = context.machine;
    let facts = [
        ("command", format!("`{}`", context.command)),
        ("CPU", machine.cpu.clone()),
        ("cores", machine.cores.clone()),
        ("platform", machine.platform.clone()),
        ("compiler that built maxconnect4", machine.rustc.clone()),
        ("build", machine.profile.to_owned()),
        ("maxconnect4 version", version::own()),
        ("git revision maxconnect4 was built from", machine.revision.clone()),
        ("the whole run took", format!("{} (wall clock)", seconds(context.elapsed))),
    ];
    text.push_str("| | |\n| --- | --- |\n");
    let more = more.iter().map(|(name, value)| (name.as_str(), value.clone()));
    // Built outside a checkout, there is no revision: the version rows say
    // what ran.
    let known = |(name, value): &(&str, String)| !(name.starts_with("git revision") && value == "unknown");
    for (name, value) in facts.into_iter().chain(more).filter(known) {
        let _ = writeln!(text, "| {name} | {value} |");
    }
    text.push('\n');
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
