//! The documentation proves itself: every `console` block of the README
//! and of each file in `docs/` is run, in order, and what the commands print
//! must match what the block shows.
//!
//! A block holds one or more commands, each on a line starting with `$ `,
//! each followed by what it prints: standard output, then standard error.
//! `[..]` in an expected line stands for any characters within the line
//! (times, speeds), and a line of just `...` for any number of lines
//! (the wildcards of snapbox, matched by [`matches`]). A command that should fail is followed by a line
//! `? CODE`. `maxconnect4` and `cargo run --release --` both run the binary
//! under test; `< FILE` feeds a file to its standard input. A `$ ` line
//! anywhere else is refused, so no example can sit where it is not run.
//!
//! Each file's commands run in a scratch directory of its own that holds
//! copies of `input_files/`, `tests/bots/`, `tests/class/` and `tests/data/`, as "from the
//! repository's root" means, so that following the documents here writes
//! nothing into the repository. Blocks run in the file's order: a later one
//! may read what an earlier one of the same file wrote (a match, then its
//! replay).
//!
//! The links between the documents are checked too: every relative link
//! leads to a file that exists, and every `#anchor` to a heading in it.

use std::path::{Path, PathBuf};

/// One command of a `console` block and what it must print.
#[derive(Debug)]
struct Example {
    /// The line the command is on, to name it when it fails.
    line: usize,
    command: String,
    expected: String,
    code: i32,
}

/// Every command of every `console` block of `markdown`, in order; `name`
/// names the file when a block is malformed.
fn examples(name: &str, markdown: &str) -> Vec<Example> {
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
            panic!("{name} line {}: a console block must start with a `$ ` command", index + 1);
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
    // With the user's own PATH: `python3` may be a version manager's shim
    // in the home folder, as it is on many users' machines.
    let mut command = super::util::maxconnect4(dir);
    command.args(args);
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
    let actual = actual.replace("\r\n", "\n");
    if matches(&example.expected, &actual) {
        Ok(())
    } else {
        Err(format!("it printed:\n{actual}\nwhere the document shows:\n{}", example.expected))
    }
}

/// Whether `actual` is what `expected` shows, line by line: a line `...`
/// stands for any number of lines, `[..]` for any characters within a line.
/// A final line ending is not compared.
fn matches(expected: &str, actual: &str) -> bool {
    let expected: Vec<&str> = expected.trim_end_matches('\n').split('\n').collect();
    let actual: Vec<&str> = actual.trim_end_matches('\n').split('\n').collect();
    lines_match(&expected, &actual)
}

fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((pattern, rest)) => {
            actual.split_first().is_some_and(|(line, more)| line_matches(pattern, line) && lines_match(rest, more))
        }
    }
}

/// Whether `line` is what `pattern` shows, each `[..]` any characters: the
/// text before the first must start the line, that after the last end it,
/// and each part between is found leftmost, which for a pattern of one kind
/// of wildcard finds a match whenever there is one.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    let (first, rest) = parts.split_first().expect("split gives at least one part");
    let Some(mut left) = line.strip_prefix(first) else { return false };
    let Some((last, middle)) = rest.split_last() else { return left.is_empty() };
    for part in middle {
        match left.find(part) {
            Some(at) => left = &left[at + part.len()..],
            None => return false,
        }
    }
    left.ends_with(last)
}

#[test]
fn the_wildcards_match_as_snapbox_reads_them() {
    assert!(matches("a [..] c\n...\nend\n", "a b b c\nx\ny\nend\n"));
    assert!(matches("a\n...\nb", "a\nb\n"), "`...` may stand for no line");
    assert!(matches("[..]x[..]", "yxy") && matches("[..]", ""));
    assert!(!matches("a [..] c", "a b d"));
    assert!(!matches("a\nb", "a\nb\nc"), "every line is compared");
    assert!(!matches("ab[..]ba", "aba"), "the parts may not overlap");
}

/// The numbers of the lines of `markdown` that start with `$ ` outside a
/// `console` block: examples that would not be run.
fn stray_examples(markdown: &str) -> Vec<usize> {
    let mut stray = Vec::new();
    let mut in_console = false;
    for (index, line) in markdown.lines().enumerate() {
        match line.trim_end() {
            "```console" if !in_console => in_console = true,
            "```" if in_console => in_console = false,
            _ if !in_console && line.starts_with("$ ") => stray.push(index + 1),
            _ => {}
        }
    }
    stray
}

/// Every Markdown file of the folder `folder` of `root`, relative to
/// `root`, in order.
fn markdown_files(root: &Path, folder: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .map(|path| path.strip_prefix(root).unwrap().to_owned())
        .collect();
    files.sort();
    files
}

/// The README and every Markdown file of `docs/`, relative to the root, in
/// order.
fn documents(root: &Path) -> Vec<PathBuf> {
    std::iter::once(PathBuf::from("README.md")).chain(markdown_files(root, "docs")).collect()
}

/// Runs every example of the document `name` in a scratch directory of its
/// own, and says how each one that fails differs.
fn failures(root: &Path, name: &str, examples: &[Example]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    copy_directory(&root.join("input_files"), &dir.path().join("input_files"));
    copy_directory(&root.join("tests/bots"), &dir.path().join("tests/bots"));
    copy_directory(&root.join("tests/data"), &dir.path().join("tests/data"));
    copy_directory(&root.join("tests/class"), &dir.path().join("tests/class"));
    examples
        .iter()
        .filter_map(|example| {
            let failure = run(example, dir.path()).err()?;
            Some(format!("{name} line {}: `{}`\n{failure}", example.line, example.command))
        })
        .collect()
}

#[test]
fn every_console_example_in_the_readme_and_docs_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let documents = documents(root);
    assert!(documents.len() > 1, "docs/ holds the documents beyond the README: found {documents:?}");
    let (mut failed, mut total) = (Vec::new(), 0);
    for document in &documents {
        let name = document.display().to_string();
        let markdown = std::fs::read_to_string(root.join(document)).unwrap();
        let stray = stray_examples(&markdown);
        assert!(stray.is_empty(), "{name}: `$ ` examples outside a console block, not run, on lines {stray:?}");
        let examples = examples(&name, &markdown);
        if name == "README.md" {
            assert!(examples.len() >= 10, "the README's examples are console blocks: found {}", examples.len());
        }
        total += examples.len();
        failed.extend(failures(root, &name, &examples));
    }
    assert!(failed.is_empty(), "{} of {total} examples differ:\n\n{}", failed.len(), failed.join("\n\n"));
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-`
/// and `_` dropped, spaces made `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of every heading of `markdown` outside code blocks, a
/// repeated one numbered as GitHub numbers it (`name-1`).
fn anchors(markdown: &str) -> Vec<String> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut anchors = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if let Some(heading) = line.strip_prefix('#').filter(|_| !in_code) {
            let base = anchor(heading.trim_start_matches('#'));
            let repeats = seen.entry(base.clone()).or_default();
            anchors.push(if *repeats == 0 { base } else { format!("{base}-{repeats}") });
            *repeats += 1;
        }
    }
    anchors
}

/// Every `](TARGET)` link of `markdown`, outside code blocks.
fn links(markdown: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                links.push(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
    }
    links
}

#[test]
fn every_link_between_the_documents_leads_to_a_file_and_a_heading() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut documents = documents(root);
    documents.extend(markdown_files(root, "reports"));
    let mut broken = Vec::new();
    for document in &documents {
        let markdown = std::fs::read_to_string(root.join(document)).unwrap();
        for link in links(&markdown) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = link.split_once('#').map_or((link.as_str(), None), |(file, f)| (file, Some(f)));
            let target =
                if file.is_empty() { root.join(document) } else { root.join(document).parent().unwrap().join(file) };
            if !target.exists() {
                broken.push(format!("{}: {link}: no file {}", document.display(), target.display()));
            } else if let Some(fragment) = fragment {
                let text = std::fs::read_to_string(&target).unwrap_or_default();
                if !anchors(&text).iter().any(|a| a == fragment) {
                    broken.push(format!(
                        "{}: {link}: no heading #{fragment} in {}",
                        document.display(),
                        target.display()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_dollar_line_outside_a_console_block_is_found_and_anchors_are_githubs() {
    let markdown =
        "# Title: `one`\n$ stray\n```console\n$ maxconnect4 perft 1\n```\n```sh\n$ not run\n```\n## Title: one\n";
    assert_eq!(stray_examples(markdown), [2, 7]);
    assert_eq!(anchors(markdown), ["title-one", "title-one-1"]);
}

#[test]
fn blocks_are_read_as_commands_expected_output_and_exit_codes() {
    let markdown = "text\n```console\n$ maxconnect4 perft 1\nperft 1 7\n$ maxconnect4 perft x\n? 2\nerror[..]\n```\n\n```sh\n$ not run\n```\n";
    let examples = examples("test.md", markdown);
    assert_eq!(examples.len(), 2);
    assert_eq!(
        (examples[0].line, examples[0].command.as_str(), examples[0].expected.as_str()),
        (3, "maxconnect4 perft 1", "perft 1 7\n")
    );
    assert_eq!((examples[1].code, examples[1].expected.as_str()), (2, "error[..]\n"));
}
