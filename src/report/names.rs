//! What the report calls each program it times, so that a sentence of
//! REPORT.md pasted into a write-up still says whose figures they are:
//! "your program" and "this program" mean nothing once out of the report.
//! The student's program is named by its command, as the student typed it
//! (shortened: see [`of_command`]); this program's own search by what it is
//! and which revision was built ([`own_search`]). The same name is used in
//! REPORT.md, on the charts and on the terminal.

use super::measure::Algorithm;
use crate::printable::printable;

/// The longest name of a command, in characters: a chart's legend has the
/// width of a panel.
const LONGEST: usize = 32;

/// The name of the program `command` runs (a command template, or
/// `maxconnect4 self`): its words before the first placeholder, each path
/// shortened to its last part (a leading `cd DIR &&` and the folders of a
/// script say where it is, not what it is; the report's facts give its
/// folder). `python3 /home/alice/maxconnect4.py one-move {in} {out} {depth}`
/// is `python3 maxconnect4.py one-move`. Never the name of this program's
/// own search, which may be timed beside it: a program run as
/// `./maxconnect4` keeps its `./`. Printable, as what others wrote is
/// (see [`printable`]), and cut to [`LONGEST`] characters.
#[must_use]
pub fn of_command(command: &str) -> String {
    let words = shell_words::split(command).unwrap_or_else(|_| command.split_whitespace().map(str::to_owned).collect());
    let words = match words.as_slice() {
        [cd, _, and, rest @ ..] if cd == "cd" && and == "&&" => rest,
        all => all,
    };
    let given: Vec<&str> = words.iter().map(String::as_str).take_while(|word| !word.contains('{')).collect();
    let shortened: Vec<&str> = given.iter().map(|word| last_part(word)).collect();
    let own = Algorithm::Program.name();
    let name = match (shortened.join(" "), given.join(" ")) {
        (short, _) if !short.is_empty() && short != own => short,
        (_, whole) if !whole.is_empty() && whole != own => whole,
        (_, whole) => format!("{whole} (player)").trim_start().to_owned(),
    };
    printable(&name, LONGEST - 1)
}

/// What `/a/b/c.py` is called without its folders: `c.py`; a word that is
/// no path, as it is.
fn last_part(word: &str) -> &str {
    let trimmed = word.trim_end_matches('/');
    match trimmed.rsplit_once('/') {
        Some((_, last)) if !last.is_empty() => last,
        _ => word,
    }
}

/// This program's own search, as `--compare` runs it, in a sentence: what
/// it is and the revision it was built from (its version outside a
/// checkout), so that figures pasted elsewhere say which code gave them.
#[must_use]
pub fn own_search() -> String {
    let name = Algorithm::Program.name();
    match option_env!("MAXCONNECT4_REVISION").filter(|revision| !revision.is_empty()) {
        Some(revision) => format!("{name} (depth-limited alpha-beta, revision {revision})"),
        None => format!("{name} (depth-limited alpha-beta, version {})", env!("CARGO_PKG_VERSION")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_named_by_its_command_without_folders_or_placeholders() {
        let cases = [
            ("python3 bot.py {in} {out} {depth}", "python3 bot.py"),
            ("python3 /home/alice/hw2/maxconnect4.py one-move {in} {out} {depth}", "python3 maxconnect4.py one-move"),
            ("cd alice && java maxconnect4 one-move {in} {out} {depth}", "java maxconnect4 one-move"),
            ("'/usr/bin/python3' -S 'my bot.py' {in} {out} {depth} quiet", "python3 -S my bot.py"),
            ("./maxconnect4 {in} {out} {depth}", "./maxconnect4"),
            ("maxconnect4 {in} {out} {depth}", "maxconnect4 (player)"),
            ("maxconnect4 self", "maxconnect4 self"),
            (
                "python3 a_program_with_a_name_far_too_long_for_a_legend.py {in} {out}",
                "python3 a_program_with_a_name_f…",
            ),
            ("'./bot\r\x1b[2K' {in} {out}", "bot\\r\\u{1b}[2K"),
        ];
        for (command, name) in cases {
            assert_eq!(of_command(command), name, "{command}");
        }
        assert!(
            of_command("python3 a_program_with_a_name_far_too_long_for_a_legend.py {in}").chars().count() <= LONGEST
        );
    }

    #[test]
    fn this_programs_search_is_named_with_its_revision() {
        let name = own_search();
        assert!(name.starts_with("maxconnect4 (depth-limited alpha-beta, "), "{name}");
        assert!(name.contains("revision ") || name.contains("version "), "{name}");
    }
}
