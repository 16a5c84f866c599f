//! Who plays a side: our own engine, a person at the terminal, or any
//! program run from a command template.
//!
//! A template is split into words the way a shell would, but no shell ever
//! runs it: the placeholders are replaced inside the words, so a path with
//! spaces stays one argument and nothing in a board path is interpreted.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::rules::Rules;

/// What a command template may not be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error("the command template '{template}' cannot be split into words: {reason}")]
    Split { template: String, reason: String },
    #[error("the command template is empty")]
    Empty,
    #[error(
        "the command template '{template}' has no {placeholder}, so the program could not know where to {purpose}"
    )]
    Missing { template: String, placeholder: &'static str, purpose: &'static str },
}

/// A side of the board as the user named it on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// This program's one-move mode, refereed like any other program.
    Engine,
    /// A person answering at the terminal.
    Human,
    /// Another program.
    Command(Template),
}

impl PlayerSpec {
    /// Reads `self`, `human`, or a command template.
    ///
    /// # Errors
    /// When a template cannot be split into words or lacks `{in}` or `{out}`.
    pub fn parse(text: &str) -> Result<PlayerSpec, TemplateError> {
        match text.trim() {
            "self" => Ok(PlayerSpec::Engine),
            "human" => Ok(PlayerSpec::Human),
            _ => Template::parse(text).map(PlayerSpec::Command),
        }
    }
}

/// A command with `{in}`, `{out}` and `{depth}` placeholders, such as
/// `java -cp bots/x maxconnect4 one-move {in} {out} {depth}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    words: Vec<String>,
}

/// The values the placeholders of a template stand for on one turn.
pub struct Substitution<'a> {
    pub input: &'a Path,
    pub output: &'a Path,
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
        let words = shell_words::split(text)
            .map_err(|error| TemplateError::Split { template: text.to_owned(), reason: error.to_string() })?;
        if words.is_empty() {
            return Err(TemplateError::Empty);
        }
        for (placeholder, purpose) in [("{in}", "read the board"), ("{out}", "write its move")] {
            if !words.iter().any(|word| word.contains(placeholder)) {
                return Err(TemplateError::Missing { template: text.to_owned(), placeholder, purpose });
            }
        }
        Ok(Template { words })
    }

    /// This program's own one-move mode under `rules`, told to stop
    /// searching after `time_limit` even if it has not reached the depth.
    #[must_use]
    pub fn engine(executable: &Path, rules: Rules, time_limit: Duration) -> Template {
        let mut words = vec![executable.to_string_lossy().into_owned()];
        words.extend(
            ["one-move", "{in}", "{out}", "{depth}", "--rules", rules.name(), "--time-limit"].map(str::to_owned),
        );
        words.push(time_limit.as_secs_f64().to_string());
        Template { words }
    }

    /// The program and its arguments for one turn. The program runs in a
    /// directory of its own, so an argument that names a file or directory
    /// in `base`, the referee's working directory (`.`, `bots/x`,
    /// `maxconnect4.py`), is made absolute; so is the program itself when it
    /// has a directory part (`./rival`), while a bare program name is looked
    /// up on the PATH. Other words are left as they are.
    #[must_use]
    pub fn command_line(&self, values: &Substitution<'_>, base: &Path) -> (PathBuf, Vec<OsString>) {
        let substitute = |word: &str| -> OsString {
            let mut result = OsString::new();
            let mut rest = word;
            while let Some(start) = rest.find('{') {
                result.push(&rest[..start]);
                rest = &rest[start..];
                let (value, length): (OsString, usize) = if rest.starts_with("{in}") {
                    (values.input.into(), 4)
                } else if rest.starts_with("{out}") {
                    (values.output.into(), 5)
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
        let resolve = |word: &String| -> OsString {
            let path = Path::new(word);
            if !word.contains('{') && path.is_relative() && !word.is_empty() && base.join(path).exists() {
                base.join(path).into_os_string()
            } else {
                substitute(word)
            }
        };
        // A program name without a directory part is looked up on the PATH,
        // as a shell would.
        let program = &self.words[0];
        let program = if program.contains('/') { resolve(program) } else { substitute(program) };
        (PathBuf::from(program), self.words[1..].iter().map(resolve).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_in(template: &str, base: &Path) -> Vec<String> {
        let values = Substitution { input: Path::new("/tmp/my dir/in-01.txt"), output: Path::new("/o.txt"), depth: 7 };
        let (program, args) = Template::parse(template).unwrap().command_line(&values, base);
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
    fn names_and_bad_templates() {
        assert_eq!(PlayerSpec::parse("self"), Ok(PlayerSpec::Engine));
        assert_eq!(PlayerSpec::parse("human"), Ok(PlayerSpec::Human));
        assert_eq!(
            PlayerSpec::parse("bot 'in {in} {out}").unwrap_err().to_string(),
            "the command template 'bot 'in {in} {out}' cannot be split into words: missing closing quote"
        );
        assert_eq!(Template::parse("  ").unwrap_err(), TemplateError::Empty);
        assert_eq!(
            Template::parse("bot {in}").unwrap_err().to_string(),
            "the command template 'bot {in}' has no {out}, so the program could not know where to write its move"
        );
    }
}
