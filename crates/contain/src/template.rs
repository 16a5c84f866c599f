//! A program's command as a template: split into words once, the way a
//! shell would, with `{in}`, `{out}` and `{depth}` replaced inside the
//! words for each run, so a path with spaces stays one argument and
//! nothing in a board path is interpreted; no shell ever runs it. Also
//! where the program's own folder is (what it is given a copy of), and
//! this program's own one-move mode as a template. What a template is run
//! for (a one-move turn, a bot's game) is its users' business.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Containment;
use super::home::Home;
use super::scratch::ScratchDir;
use maxconnect4_game::rules::Rules;

/// What a command template may not be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// The text cannot be split into words as a shell would: a quote is
    /// left open, or a backslash ends it.
    #[error("the command template '{template}' cannot be split into words: {reason}")]
    Split {
        /// The template as given.
        template: String,
        /// Why, in `shell-words`' words.
        reason: String,
    },
    /// The text holds no words, or none after `cd DIR &&`.
    #[error("the command template is empty")]
    Empty,
    /// A one-move command lacks `{in}` or `{out}`, so the program would
    /// not be told where the board is or where its move goes.
    #[error(
        "the command template '{template}' has no {placeholder}, so the program could not know where to {purpose}{hint}"
    )]
    Missing {
        /// The template as given.
        template: String,
        /// The placeholder missing: `{in}` or `{out}`.
        placeholder: &'static str,
        /// What the program needs it for, in the message's words (`read the board`).
        purpose: &'static str,
        /// The placeholders the words in braces were perhaps meant to be
        /// (`: did you mean {in} for {input}?`), or nothing.
        hint: String,
    },
    /// A bot's command names `{in}` or `{out}`: a bot is told the game on
    /// its standard input, never in files.
    #[error(
        "the command '{command}' of a {kind} bot has {placeholder}: such a bot is told the game on its standard input"
    )]
    Placeholder {
        /// The command as given, trimmed.
        command: String,
        /// The kind of bot (`moderator` or `coordinator`).
        kind: &'static str,
        /// The placeholder it names: `{in}` or `{out}`.
        placeholder: &'static str,
    },
}

/// The words of a command, and the folder of a leading `cd DIR &&`, which
/// is not run (no shell runs a template) but names the program's folder.
fn split(text: &str) -> Result<(Option<String>, Vec<String>), TemplateError> {
    let mut words = shell_words::split(text)
        .map_err(|error| TemplateError::Split { template: text.to_owned(), reason: error.to_string() })?;
    let folder = match words.as_slice() {
        [cd, folder, and, ..] if cd == "cd" && and == "&&" => {
            let folder = folder.clone();
            words.drain(..3);
            Some(folder)
        }
        _ => None,
    };
    if words.is_empty() {
        return Err(TemplateError::Empty);
    }
    Ok((folder, words))
}

/// The words in braces of `text` that look like a mistyped placeholder
/// (`{input}`, `{IN}`, `{infile}` for `{in}`; `{output}`, `{out_file}` for
/// `{out}`; `{DEPTH}` for `{depth}`), each once, in order, with the
/// placeholder meant.
fn near_misses(text: &str) -> Vec<(String, &'static str)> {
    // What may follow a placeholder's stem, and "put" of input and output.
    const TAILS: [&str; 6] = ["", "p", "file", "path", "filename", "board"];
    let meant = |name: &str| -> Option<&'static str> {
        let name: String = name.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
        let stem = |stem: &str| {
            name.strip_prefix(stem)
                .map(|rest| rest.strip_prefix("put").unwrap_or(rest))
                .is_some_and(|rest| TAILS.contains(&rest))
        };
        if stem("in") || name == "i" {
            Some("{in}")
        } else if stem("out") || name == "o" {
            Some("{out}")
        } else if ["depth", "d", "maxdepth", "ply", "plies"].contains(&name.as_str()) {
            Some("{depth}")
        } else {
            None
        }
    };
    let mut found: Vec<(String, &'static str)> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        rest = &rest[start..];
        let Some(end) = rest[1..].find(['{', '}']).map(|end| end + 1) else { break };
        let (word, name) = (&rest[..=end], &rest[1..end]);
        if rest[end..].starts_with('}')
            && name.len() <= 24
            && !name.contains(char::is_whitespace)
            && let Some(placeholder) = meant(name).filter(|placeholder| *placeholder != word)
            && !found.iter().any(|(seen, _)| seen == word)
        {
            found.push((word.to_owned(), placeholder));
        }
        rest = &rest[end..];
    }
    found
}

/// `: did you mean {in} for {input} and {out} for {output}?`, or nothing.
fn did_you_mean(near_misses: &[(String, &'static str)]) -> String {
    let pairs: Vec<String> = near_misses.iter().map(|(word, meant)| format!("{meant} for {word}")).collect();
    match pairs.as_slice() {
        [] => String::new(),
        [one] => format!(": did you mean {one}?"),
        [init @ .., last] => format!(": did you mean {} and {last}?", init.join(", ")),
    }
}

/// A command with `{in}`, `{out}` and `{depth}` placeholders, such as
/// `java -cp bots/x maxconnect4 one-move {in} {out} {depth}`, perhaps
/// after `cd DIR &&`, which names the program's folder as a shell would.
///
/// ```
/// use std::path::Path;
///
/// use maxconnect4_contain::template::{Substitution, Template, TemplateError};
///
/// let base = tempfile::tempdir().unwrap();
/// std::fs::write(base.path().join("bot.py"), "").unwrap();
/// let template = Template::parse("python3 bot.py --name 'Red Bot' {in} {out} {depth}").unwrap();
/// assert_eq!(template.home(base.path()).as_deref(), Some(base.path()), "where bot.py is");
///
/// // Each word stays one argument; the file it names is found from `base`.
/// let values =
///     Substitution { input: Some(Path::new("/tmp/in 01.txt")), output: Some(Path::new("/tmp/out.txt")), depth: 7 };
/// let (program, args) = template.command_line(&values, base.path(), None);
/// assert_eq!(program, Path::new("python3"), "looked up on the PATH when run");
/// let script = base.path().join("bot.py");
/// let expected = [script.as_os_str(), "--name".as_ref(), "Red Bot".as_ref()];
/// assert_eq!(args[..3], expected);
/// assert_eq!(args[3..], ["/tmp/in 01.txt", "/tmp/out.txt", "7"]);
///
/// // A placeholder mistyped is named.
/// let error = Template::parse("python3 bot.py {input} {out}").unwrap_err();
/// assert!(matches!(error, TemplateError::Missing { placeholder: "{in}", .. }));
/// assert!(error.to_string().ends_with("where to read the board: did you mean {in} for {input}?"), "{error}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    words: Vec<String>,
    /// Whether the words are a user's, whose arguments may name files in
    /// the referee's directory; this program's own engine command names
    /// none, and its `classic` or `1` must stay a word even where the
    /// directory holds a file of that name.
    names_files: bool,
    /// The folder of a leading `cd DIR &&`, as given: the program's own
    /// folder, which its relative words start from.
    folder: Option<String>,
    /// Where the program's folder really is when the referee built it in a
    /// copy (a class's submission): its words start there, while the
    /// command as given is what is shown and logged. Or why it could not
    /// be found or built, which the player's first turn then says.
    built: Option<Built>,
}

/// Where the referee built a program, or why it could not.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Built {
    /// In this copy of the folder its command names.
    In(PathBuf),
    /// It could not be found or built: why, which its first turn says.
    Failed(String),
}

/// The words of a classpath option's value, and of `-jar`'s.
const CLASSPATH_OPTIONS: [&str; 4] = ["-cp", "-classpath", "--class-path", "-jar"];

/// The values the placeholders of a template stand for on one turn (a bot
/// that talks on its standard input has no files).
pub struct Substitution<'a> {
    /// The board file the program reads, for `{in}`.
    pub input: Option<&'a Path>,
    /// The file the program writes its move to, for `{out}`.
    pub output: Option<&'a Path>,
    /// How many moves deep the program searches, for `{depth}`.
    pub depth: u32,
}

impl Template {
    /// Splits `text` into words as a POSIX shell would (quotes and
    /// backslashes, no expansions).
    ///
    /// # Errors
    /// When quotes are unbalanced, there are no words, or `{in}` or `{out}`
    /// appears nowhere.
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let (folder, words) = split(text)?;
        for (placeholder, purpose) in [("{in}", "read the board"), ("{out}", "write its move")] {
            if !words.iter().any(|word| word.contains(placeholder)) {
                let hint = did_you_mean(&near_misses(text));
                return Err(TemplateError::Missing { template: text.to_owned(), placeholder, purpose, hint });
            }
        }
        Ok(Template { words, names_files: true, folder, built: None })
    }

    /// Splits the command of a `kind` bot (`moderator` or `coordinator`),
    /// which may name `{depth}` but no files.
    ///
    /// # Errors
    /// When it cannot be split into words, is empty, or names `{in}` or `{out}`.
    pub fn bot(text: &str, kind: &'static str) -> Result<Template, TemplateError> {
        let (folder, words) = split(text)?;
        for placeholder in ["{in}", "{out}"] {
            if words.iter().any(|word| word.contains(placeholder)) {
                return Err(TemplateError::Placeholder { command: text.trim().to_owned(), kind, placeholder });
            }
        }
        Ok(Template { words, names_files: true, folder, built: None })
    }

    /// A program the referee could not find or build, named by `given`:
    /// its first turn fails to start, saying `why`.
    #[must_use]
    pub fn missing(given: String, why: String) -> Template {
        Template { words: vec![given], names_files: true, folder: None, built: Some(Built::Failed(why)) }
    }

    /// The same command, its folder being `built`: a copy of the folder it
    /// names, in which the referee built the program.
    #[must_use]
    pub fn built_in(mut self, built: PathBuf) -> Template {
        self.built = Some(Built::In(built));
        self
    }

    /// Whether the referee built the program in a copy of a submission's
    /// folder (a class's), or tried to.
    #[must_use]
    pub const fn is_built(&self) -> bool {
        self.built.is_some()
    }

    /// Whether this is this program's own one-move mode
    /// ([`Template::engine`], [`Template::own_search`]): a failure to
    /// start is then its runner's fault, not a player's.
    #[must_use]
    pub const fn is_own(&self) -> bool {
        !self.names_files
    }

    /// Why the program cannot be run, when the referee could not find or
    /// build it.
    #[must_use]
    pub fn unbuilt(&self) -> Option<&str> {
        match &self.built {
            Some(Built::Failed(why)) => Some(why),
            _ => None,
        }
    }

    /// The folder the command's relative words start from: where it was
    /// built, its `cd DIR`, or the referee's working directory `base`.
    fn origin(&self, base: &Path) -> PathBuf {
        match (&self.built, &self.folder) {
            (Some(Built::In(built)), _) => built.clone(),
            (Some(Built::Failed(_)) | None, Some(folder)) => base.join(folder),
            (Some(Built::Failed(_)) | None, None) => base.to_owned(),
        }
    }

    /// Gives the player of `dir` this program's folder, as
    /// [`Containment::furnish`] does, `base` being the referee's working
    /// directory; or, when the referee could not find or build the
    /// program, the reason, which its first turn gives.
    pub fn furnish(&self, containment: &Containment, dir: &mut ScratchDir, base: &Path) {
        if self.is_built() {
            dir.confine();
        }
        match (self.unbuilt(), self.home(base)) {
            (Some(why), _) => dir.set_home(Home::Missing(why.to_owned())),
            (None, Some(home)) => containment.furnish(dir, &home),
            (None, None) => {}
        }
    }

    /// The program's own folder, which it runs in (a copy of it): where it
    /// was built, its `cd DIR`, else the folder of the script, classpath,
    /// jar or program its words name (`python3 alice/maxconnect4.py`,
    /// `java -cp alice maxconnect4`, `/home/alice/mc4`), an interpreter in
    /// a `bin` folder aside, else the referee's working directory `base`.
    /// None for this program's own engine, which needs no folder.
    #[must_use]
    pub fn home(&self, base: &Path) -> Option<PathBuf> {
        if !self.names_files {
            return None;
        }
        let origin = self.origin(base);
        if self.built.is_some() || self.folder.is_some() {
            return Some(origin);
        }
        let program = Path::new(&self.words[0]);
        let interpreter = program.parent().and_then(Path::file_name).is_some_and(|folder| folder == "bin");
        let program = (self.words[0].contains('/') && !interpreter).then(|| origin.join(program));
        let mut arguments = Vec::new();
        let mut words = self.words[1..].iter();
        while let Some(word) = words.next() {
            if CLASSPATH_OPTIONS.contains(&word.as_str()) {
                // A classpath's first entry; a folder counts as well as a file.
                if let Some(entry) = words.next().and_then(|value| value.split(':').next()) {
                    arguments.push((origin.join(entry), true));
                }
            } else if !word.contains('{') && !word.starts_with('-') && (word.contains('.') || word.contains('/')) {
                arguments.push((origin.join(word), false));
            }
        }
        let found = program.into_iter().map(|path| (path, false)).chain(arguments).find_map(|(path, folder)| {
            let metadata = std::fs::metadata(&path).ok()?;
            if metadata.is_file() {
                Some(path.parent()?.to_owned())
            } else {
                (folder && metadata.is_dir()).then_some(path)
            }
        });
        Some(found.unwrap_or(origin))
    }

    /// The arguments of this program's own depth-limited search, as the
    /// timing report's `--compare` runs it: under Max-Connect4's rules, the
    /// report's, where `one-move` plays the search alone, from no opening
    /// book (unlike `self`, whose book's move would cost no search), and
    /// with one thread (its nodes and CPU time then those of one searcher,
    /// as a student's program is).
    pub const OWN_SEARCH: [&'static str; 8] =
        ["one-move", "{in}", "{out}", "{depth}", "--rules", "max", "--threads", "1"];

    /// This program's own depth-limited search: [`Template::OWN_SEARCH`]
    /// run by `executable`.
    #[must_use]
    pub fn own_search(executable: &Path) -> Template {
        let mut words = vec![executable.to_string_lossy().into_owned()];
        words.extend(Template::OWN_SEARCH.map(str::to_owned));
        Template { words, names_files: false, folder: None, built: None }
    }

    /// This program's own one-move mode under `rules`, playing as `play`
    /// says, told to stop searching after `time_limit` even if it has not
    /// reached the depth.
    #[must_use]
    pub fn engine(executable: &Path, rules: Rules, play: OwnPlay, time_limit: Duration) -> Template {
        let mut words = vec![executable.to_string_lossy().into_owned()];
        // One thread: the CPU time of a move counts against it as its wall
        // time does, and at a fixed depth the move is the same on any number.
        // The book's move where the shipped book holds the position, under
        // either rules (classic rules' search reads it anyway), and the
        // search to the depth past it: the same move every time.
        words.extend(
            [
                "one-move",
                "{in}",
                "{out}",
                "{depth}",
                "--rules",
                rules.name(),
                play.option(),
                "--threads",
                "1",
                "--time-limit",
            ]
            .map(str::to_owned),
        );
        words.push(time_limit.as_secs_f64().to_string());
        Template { words, names_files: false, folder: None, built: None }
    }

    /// The program and its arguments for one turn. The program runs in a
    /// folder of its own, so a word that names a file or folder where the
    /// command starts (`base`, the referee's working directory, or its
    /// `cd DIR`: `.`, `bots/x`, `maxconnect4.py`, a classpath's entries)
    /// names it in `copy` when it is in the copied `home` (`copy` is
    /// `(home, copy)`), else is made absolute; so is the program itself
    /// when it has a directory part (`./rival`), while a bare program name
    /// is looked up on the PATH. Other words are left as they are.
    #[must_use]
    pub fn command_line(
        &self,
        values: &Substitution<'_>,
        base: &Path,
        copy: Option<(&Path, &Path)>,
    ) -> (PathBuf, Vec<OsString>) {
        let origin = self.origin(base);
        // Where a path the command names is found for the player.
        let place = |path: &Path| -> Option<PathBuf> {
            let found = origin.join(path);
            if !found.exists() {
                return None;
            }
            let within = copy.and_then(|(home, copy)| {
                let canonical = found.canonicalize().ok()?;
                let within = canonical.strip_prefix(home).ok()?;
                Some(if within.as_os_str().is_empty() { copy.to_owned() } else { copy.join(within) })
            });
            // A submission's words name nothing outside its own folder.
            if self.built.is_some() && within.is_none() {
                return None;
            }
            Some(within.unwrap_or(found))
        };
        let substitute = |word: &str| -> OsString {
            let mut result = OsString::new();
            let mut rest = word;
            while let Some(start) = rest.find('{') {
                result.push(&rest[..start]);
                rest = &rest[start..];
                let (value, length): (OsString, usize) =
                    if let (true, Some(input)) = (rest.starts_with("{in}"), values.input) {
                        (input.into(), 4)
                    } else if let (true, Some(output)) = (rest.starts_with("{out}"), values.output) {
                        (output.into(), 5)
                    } else if rest.starts_with("{depth}") {
                        (values.depth.to_string().into(), 7)
                    } else {
                        ("{".into(), 1)
                    };
                result.push(value);
                rest = &rest[length..];
            }
            result.push(rest);
            result
        };
        let names_a_file = |word: &str| self.names_files && !word.contains('{') && !word.is_empty();
        let resolve = |word: &String| -> OsString {
            match names_a_file(word).then(|| place(Path::new(word))).flatten() {
                Some(path) => path.into_os_string(),
                None => substitute(word),
            }
        };
        // A classpath names folders and jars, separated by colons.
        let classpath = |value: &String| -> OsString {
            if !names_a_file(value) || !value.contains(':') {
                return resolve(value);
            }
            let entries: Vec<PathBuf> =
                value.split(':').map(|entry| place(Path::new(entry)).unwrap_or_else(|| PathBuf::from(entry))).collect();
            std::env::join_paths(entries).unwrap_or_else(|_| value.into())
        };
        // A program name without a directory part is looked up on the PATH,
        // as a shell would.
        let program = &self.words[0];
        let program = if program.contains('/') { resolve(program) } else { substitute(program) };
        let mut args = Vec::with_capacity(self.words.len());
        let mut words = self.words[1..].iter();
        while let Some(word) = words.next() {
            args.push(resolve(word));
            if CLASSPATH_OPTIONS.contains(&word.as_str()) {
                args.extend(words.next().map(classpath));
            }
        }
        (PathBuf::from(program), args)
    }
}

/// How this program's own one-move mode plays as a player: `self` or
/// `perfect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnPlay {
    /// `self`: the book's move where the shipped book holds the position,
    /// else the search to the depth (`--book-moves`): the same move every
    /// time.
    BookMoves,
    /// `perfect`: perfectly where the time allows (`--perfect`), saying
    /// in its output when a move is not perfect play.
    Perfect,
}

impl OwnPlay {
    /// The one-move mode's option that plays so.
    const fn option(self) -> &'static str {
        match self {
            OwnPlay::BookMoves => "--book-moves",
            OwnPlay::Perfect => "--perfect",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_in(template: &str, base: &Path) -> Vec<String> {
        let values = Substitution {
            input: Some(Path::new("/tmp/my dir/in-01.txt")),
            output: Some(Path::new("/o.txt")),
            depth: 7,
        };
        let (program, args) = Template::parse(template).unwrap().command_line(&values, base, None);
        std::iter::once(program.into_os_string()).chain(args).map(|word| word.into_string().unwrap()).collect()
    }

    fn line(template: &str) -> Vec<String> {
        line_in(template, Path::new("/nowhere"))
    }

    #[test]
    fn placeholders_become_whole_arguments() {
        assert_eq!(
            line("java -cp 'bots/my x' maxconnect4 one-move {in} {out} {depth}"),
            ["java", "-cp", "bots/my x", "maxconnect4", "one-move", "/tmp/my dir/in-01.txt", "/o.txt", "7"]
        );
        assert_eq!(
            line("bot --in={in} -o{out} {x} '$HOME' \"a;b\""),
            ["bot", "--in=/tmp/my dir/in-01.txt", "-o/o.txt", "{x}", "$HOME", "a;b"]
        );
    }

    #[test]
    fn a_near_miss_of_a_placeholder_is_named() {
        let error = |text: &str| Template::parse(text).unwrap_err().to_string();
        assert_eq!(
            error("python3 prog.py one-move {input} {output} {depth}"),
            "the command template 'python3 prog.py one-move {input} {output} {depth}' has no {in}, so the program \
             could not know where to read the board: did you mean {in} for {input} and {out} for {output}?"
        );
        assert!(error("bot {IN} {out}").ends_with("read the board: did you mean {in} for {IN}?"));
        assert!(
            error("bot --board={in_file} {out} {DEPTH}")
                .ends_with(": did you mean {in} for {in_file} and {depth} for {DEPTH}?")
        );
        assert!(error("bot {in} {outfile} {outfile}").ends_with("write its move: did you mean {out} for {outfile}?"));
        assert!(error("bot {index} {{x} {out}").ends_with("read the board"), "no near miss, no hint");
    }

    #[test]
    fn relative_paths_are_found_from_the_referee_directory() {
        let base = tempfile::tempdir().unwrap();
        std::fs::create_dir(base.path().join("bots")).unwrap();
        std::fs::write(base.path().join("bots").join("bot.py"), "").unwrap();
        std::fs::write(base.path().join("python3"), "").unwrap();
        let at = |path: &str| base.path().join(path).display().to_string();
        assert_eq!(line_in("./bots/bot.py {in} {out}", base.path())[0], at("./bots/bot.py"));
        assert_eq!(
            line_in("python3 bots/bot.py one-move {in} {out}", base.path())[..3],
            ["python3".to_owned(), at("bots/bot.py"), "one-move".to_owned()]
        );
        assert_eq!(
            line_in("java -cp . Main {in} {out}", base.path())[..4],
            ["java".to_owned(), "-cp".to_owned(), at("."), "Main".to_owned()]
        );
        assert_eq!(line_in("run bots/missing {in} {out}", base.path())[..2], ["run", "bots/missing"]);
        assert_eq!(line_in("./missing {in} {out}", base.path())[0], "./missing");
    }

    #[test]
    fn the_own_engine_names_no_files() {
        // A tournament with `--rules classic --out classic` makes a folder
        // `classic` beside the referee: `self`'s own words must stay words.
        let base = tempfile::tempdir().unwrap();
        for name in ["classic", "one-move", "1"] {
            std::fs::create_dir(base.path().join(name)).unwrap();
        }
        let values = Substitution { input: Some(Path::new("/i")), output: Some(Path::new("/o")), depth: 1 };
        let engine =
            Template::engine(Path::new("/bin/maxconnect4"), Rules::Classic, OwnPlay::BookMoves, Duration::from_secs(1));
        let (_, args) = engine.command_line(&values, base.path(), None);
        assert_eq!(
            args,
            ["one-move", "/i", "/o", "1", "--rules", "classic", "--book-moves", "--threads", "1", "--time-limit", "1"]
        );
        let user = Template::parse("prog {in} {out} classic").unwrap();
        let (_, args) = user.command_line(&values, base.path(), None);
        assert_eq!(
            args[2],
            base.path().join("classic").into_os_string(),
            "a user's word naming a file is made absolute"
        );
    }

    #[test]
    fn a_programs_folder_is_its_cd_or_what_its_words_name() {
        let base = tempfile::tempdir().unwrap();
        let base = base.path().canonicalize().unwrap();
        for folder in ["alice/pkg", "bob", "venv/bin"] {
            std::fs::create_dir_all(base.join(folder)).unwrap();
        }
        for file in ["alice/maxconnect4.py", "alice/model.txt", "bob/mc4", "venv/bin/python3", "lib.jar"] {
            std::fs::write(base.join(file), "").unwrap();
        }
        let home = |template: &str| Template::parse(template).unwrap().home(&base).unwrap();
        assert_eq!(home("python3 maxconnect4.py {in} {out}"), base, "nothing named here: the referee's folder");
        assert_eq!(home("python3 alice/maxconnect4.py {in} {out} alice/model.txt"), base.join("alice"));
        assert_eq!(home("venv/bin/python3 alice/maxconnect4.py {in} {out}"), base.join("alice"));
        assert_eq!(home("java -cp alice:lib.jar maxconnect4 {in} {out}"), base.join("alice"));
        assert_eq!(home("java -cp . maxconnect4 {in} {out}"), base);
        assert_eq!(home("./bob/mc4 one-move {in} {out}"), base.join("bob"));
        assert_eq!(home("cd bob && ./mc4 one-move {in} {out}"), base.join("bob"));
        assert_eq!(home("cd 'no such' && ./mc4 {in} {out}"), base.join("no such"));
        let engine =
            Template::engine(Path::new("/bin/maxconnect4"), Rules::Max, OwnPlay::BookMoves, Duration::from_secs(1));
        assert_eq!(engine.home(&base), None);
        let built = Template::parse("cd alice && java pkg.Main {in} {out}").unwrap().built_in(base.join("bob"));
        assert_eq!(built.home(&base).unwrap(), base.join("bob"));
    }

    #[test]
    fn words_naming_the_programs_folder_name_its_copy() {
        let base = tempfile::tempdir().unwrap();
        let base = base.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("alice/pkg")).unwrap();
        std::fs::write(base.join("alice/maxconnect4.py"), "").unwrap();
        std::fs::write(base.join("shared.jar"), "").unwrap();
        let values = Substitution { input: Some(Path::new("/i")), output: Some(Path::new("/o")), depth: 3 };
        let copy = Path::new("/scratch/red");
        let line = |template: &str| {
            let template = Template::parse(template).unwrap();
            let home = template.home(&base).unwrap();
            let (program, args) = template.command_line(&values, &base, Some((&home, copy)));
            std::iter::once(program.into_os_string())
                .chain(args)
                .map(|word| word.into_string().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            line("python3 alice/maxconnect4.py {in} {out} {depth}"),
            ["python3", "/scratch/red/maxconnect4.py", "/i", "/o", "3"]
        );
        assert_eq!(line("cd alice && python3 maxconnect4.py {in} {out}")[1], "/scratch/red/maxconnect4.py");
        let jar = base.join("shared.jar").display().to_string();
        assert_eq!(
            line("java -cp alice:shared.jar:missing pkg.Main {in} {out}")[..3],
            ["java".to_owned(), "-cp".to_owned(), format!("/scratch/red:{jar}:missing")]
        );
    }
}
