//! The README proves itself: every `console` block in it is run, in order,
//! and what the commands print must match what the block shows.
//!
//! A block holds one or more commands, each on a line starting with `$ `,
//! each followed by what it prints: standard output, then standard error.
//! `[..]` in an expected line stands for any characters within the line
//! (times, speeds), and a line of just `...` for any number of lines
//! (snapbox's wildcards). A command that should fail is followed by a line
//! `? CODE`. `maxconnect4` and `cargo run --release --` both run the binary
//! under test; `< FILE` feeds a file to its standard input.
//!
//! The commands run in one scratch directory that holds copies of
//! `input_files/` and `tests/bots/`, as the README's "from this directory"
//! means, so that following the README here writes nothing into the
//! repository. Blocks run in README order: a later one may read what an
//! earlier one wrote (a match, then its replay).

use std::path::{Path, PathBuf};

use snapbox::{Assert, IntoData as _};

/// One command of a `console` block and what it must print.
#[derive(Debug)]
struct Example {
    /// The README line the command is on, to name it when it fails.
    line: usize,
    command: String,
    expected: String,
    code: i32,
}

/// Every command of every `console` block of `markdown`, in order.
fn examples(markdown: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (index, line) in markdown.lines().enumerate() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_console = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example { line: index + 1, command: command.to_owned(), expected: String::new(), code: 0 });
        } else if let Some(example) = examples.last_mut() {
            match line.strip_prefix("? ") {
                Some(code) => example.code = code.parse().expect("`? CODE` gives a number"),
                None => {
                    example.expected.push_str(line);
                    example.expected.push('\n');
                }
            }
        } else {
            panic!("README.md line {}: a console block must start with a `$ ` command", index + 1);
        }
    }
    examples
}

/// Copies every file of `from` into `to`, made if need be.
fn copy_directory(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_directory(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Runs `example` in `dir` and says how its output differs, if it does.
fn run(example: &Example, dir: &Path) -> Result<(), String> {
    let mut words = shell_words::split(&example.command).map_err(|error| error.to_string())?;
    let stdin = match words.iter().position(|word| word == "<") {
        Some(at) => {
            let file = words.get(at + 1).ok_or("`<` without a file")?.clone();
            words.truncate(at);
            Some(PathBuf::from(file))
        }
        None => None,
    };
    let args = match words.as_slice() {
        [program, rest @ ..] if program == "maxconnect4" => rest,
        [cargo, run, release, dashes, rest @ ..]
            if [cargo, run, release, dashes] == ["cargo", "run", "--release", "--"] =>
        {
            rest
        }
        _ => return Err("the command must start with `maxconnect4` or `cargo run --release --`".to_owned()),
    };
    let mut command = super::util::maxconnect4(dir);
    command.args(args);
    // `python3` is the interpreter itself, not a version manager's shim
    // that a player running as `nobody` under a root referee cannot follow
    // into root's home (the README says so).
    let python = Path::new(super::util::python()).parent().expect("an interpreter is in a folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    command.env(
        "PATH",
        std::env::join_paths(std::iter::once(python.to_owned()).chain(std::env::split_paths(&path))).unwrap(),
    );
    if let Some(file) = stdin {
        command.pipe_stdin(dir.join(file)).map_err(|error| error.to_string())?;
    }
    let output = command.output().map_err(|error| error.to_string())?;
    let code = output.status.code().unwrap_or(-1);
    let mut actual = String::from_utf8_lossy(&output.stdout).into_owned();
    actual.push_str(&String::from_utf8_lossy(&output.stderr));
    if code != example.code {
        return Err(format!("exit code {code}, expected {}; it printed:\n{actual}", example.code));
    }
    let expected = example.expected.as_str().into_data();
    Assert::new().try_eq(Some(&"the program"), actual.into_data(), expected).map_err(|error| error.to_string())
}

#[test]
fn every_console_example_in_the_readme_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() >= 10, "the README's examples are console blocks: found {}", examples.len());
    let dir = tempfile::tempdir().unwrap();
    copy_directory(&root.join("input_files"), &dir.path().join("input_files"));
    copy_directory(&root.join("tests/bots"), &dir.path().join("tests/bots"));
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|example| {
            let failure = run(example, dir.path()).err()?;
            Some(format!("README.md line {}: `{}`\n{failure}", example.line, example.command))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} README examples differ:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
}

#[test]
fn blocks_are_read_as_commands_expected_output_and_exit_codes() {
    let markdown = "text\n```console\n$ maxconnect4 perft 1\nperft 1 7\n$ maxconnect4 perft x\n? 2\nerror[..]\n```\n\n```sh\n$ not run\n```\n";
    let examples = examples(markdown);
    assert_eq!(examples.len(), 2);
    assert_eq!(
        (examples[0].line, examples[0].command.as_str(), examples[0].expected.as_str()),
        (3, "maxconnect4 perft 1", "perft 1 7\n")
    );
    assert_eq!((examples[1].code, examples[1].expected.as_str()), (2, "error[..]\n"));
}
