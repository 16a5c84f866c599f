//! A class's programs, one folder each (as a course site's download gives
//! them): in each folder the program is found and built as its student
//! would, and becomes a player named after the folder, whose command (shown
//! and logged) starts with `cd FOLDER &&`.
//!
//! What is found, in order: the command a file [`COMMAND_FILE`] in the
//! folder gives; Java (class files with a `main`, else the sources, built
//! with `javac`, packages included); Python (the `maxconnect4*.py` script,
//! or the only one that reads its arguments; Python 3, or Python 2 where
//! only it compiles the script; where none reads its arguments, a Kaggle
//! ConnectX agent: see [`agent_recipe`]); C or C++ (`make` where there is a
//! Makefile, else the sources compiled together); an executable named like
//! maxconnect4. The main class or program is the one named like
//! maxconnect4, case aside, or the only one.
//!
//! A build runs once per folder, in a copy of it, contained and
//! time-limited as a move is: a student's build is other people's code too.
//! The submission itself is never changed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::referee::Error;
use crate::referee::player::PlayerSpec;
use crate::referee::player::program::{self, CAPTURE_LIMIT};
use maxconnect4_contain::home::Home;
use maxconnect4_contain::sandbox::Isolation;
use maxconnect4_contain::scratch::ScratchDir;
use maxconnect4_contain::{Containment, Ending};

/// The file in a student's folder that says how to run the program, and
/// how to build it, overriding the guess: a line `run: COMMAND` (or the
/// command alone) and, if it needs building, `build: SHELL COMMAND`.
pub const COMMAND_FILE: &str = "maxconnect4-player.txt";

/// The most a command file may hold.
const COMMAND_FILE_LIMIT: u64 = 4096;

/// The most of a source or class file read to find its `main`: far more
/// than a student writes by hand, and a bound on the referee's memory
/// whatever a submission holds (a 1 GiB sparse `zbig.py` read whole took
/// the referee to 1.06 GB).
const LARGEST_READ: u64 = 1 << 20;

/// The most files looked at in a submission: a program's folder holds
/// sources, classes and a few data files.
const MOST_FILES: usize = 10_000;

/// How long a build may take.
pub const BUILD_TIME: Duration = Duration::from_secs(120);

/// What was found in a student's folder: how its program is built and run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// What it is: `Java`, `Python`, `C++`, `C`, `executable`, or the
    /// command file's.
    pub language: &'static str,
    /// A shell command run in the copy first, if the program needs one.
    pub build: Option<String>,
    /// The command template, from the student's folder.
    pub run: String,
    /// A Python script whose interpreter is chosen by trying: `run` has
    /// `python3`, and `python2` is tried where Python 3 cannot compile it.
    pub python: Option<String>,
}

/// The template's tail every guessed command ends with.
const ARGUMENTS: &str = "one-move {in} {out} {depth}";

/// Why no one program was found in a submission's folder.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoRecipe {
    /// The folder holds nothing that looks like a program.
    #[error(
        "no program found: no Java, Python, C or C++ sources or classes, no executable named like maxconnect4, \
         and no {COMMAND_FILE} to say how to run it"
    )]
    Nothing,
    /// The command file, at this path, cannot be opened (a link, say).
    #[error("{} is not a regular file the referee can read", .0.display())]
    CommandFileUnreadable(PathBuf),
    /// The command file, at this path, is a folder, a device or a pipe.
    #[error("{} is not a regular file", .0.display())]
    CommandFileNotRegular(PathBuf),
    /// The command file, at this path, is longer than a command file is.
    #[error("{} holds more than {COMMAND_FILE_LIMIT} bytes: give one run: and one build: line", .0.display())]
    CommandFileTooLarge(PathBuf),
    /// The command file gives a second run or build command.
    #[error("{}, line {line}: a second command; give one run: and one build: line", .path.display())]
    SecondCommand {
        /// The command file.
        path: PathBuf,
        /// The second command's line, from 1.
        line: usize,
    },
    /// The command file, at this path, has a build command but no run
    /// command.
    #[error("{}: no command (a line `run: COMMAND` with {{in}} and {{out}})", .0.display())]
    NoCommand(PathBuf),
    /// The Java class with a main, named here, is not where its package
    /// puts it, so `java -cp` cannot find it.
    #[error("the class {0} is not in the folders its package names")]
    ClassOutsidePackages(String),
    /// A Java source is not where its package puts it.
    #[error("{} is not in the folders its package {package} names", .path.display())]
    SourceOutsidePackages {
        /// The source file.
        path: PathBuf,
        /// The package it declares.
        package: String,
    },
    /// Sources were found, but none is a program's entry point.
    #[error("{sources}, but none with {main}")]
    NoMain {
        /// What was found (`Java sources`).
        sources: String,
        /// What none has (`a main method`).
        main: &'static str,
    },
    /// Python files were found, but none reads its arguments, as a
    /// one-move program must, and none defines a ConnectX agent.
    #[error(
        "Python files, but none reads its arguments (sys.argv) or defines a ConnectX agent (def agent(obs, config))"
    )]
    NoArguments,
    /// More than one candidate (`what`, named), none named like maxconnect4.
    #[error(
        "{} {what} ({}) and none named like maxconnect4: say which in {COMMAND_FILE}",
        .names.len(), .names.join(", ")
    )]
    Several {
        /// What kind of candidate (`classes with a main`).
        what: &'static str,
        /// The candidates' names.
        names: Vec<String>,
    },
    /// `make` ran, but left no one program to run.
    #[error("make made no program named like maxconnect4 (and not exactly one new one): say which in the command file")]
    NothingMade,
    /// The folder holds more files than a program's folder does.
    #[error("more than {MOST_FILES} files: a program's folder holds its sources and a few data files")]
    TooManyFiles,
}

/// The program in `folder`, or why none was found.
///
/// # Errors
/// What was looked for and not found, or found more than once.
pub fn recipe(folder: &Path) -> Result<Recipe, NoRecipe> {
    let files = files(folder).ok_or(NoRecipe::TooManyFiles)?;
    if let Some(recipe) = command_file(folder)? {
        return Ok(recipe);
    }
    let named = |path: &&PathBuf, extension: &str| path.extension().is_some_and(|found| found == extension);
    let classes: Vec<&PathBuf> = files.iter().filter(|path| named(path, "class")).collect();
    let java: Vec<&PathBuf> = files.iter().filter(|path| named(path, "java")).collect();
    if !classes.is_empty() || !java.is_empty() {
        return java_recipe(folder, &classes, &java);
    }
    let python: Vec<&PathBuf> = files.iter().filter(|path| named(path, "py")).collect();
    if !python.is_empty() {
        return python_recipe(folder, &python);
    }
    let cpp: Vec<&PathBuf> =
        files.iter().filter(|path| ["cpp", "cc", "cxx", "C"].iter().any(|extension| named(path, extension))).collect();
    let c: Vec<&PathBuf> = files.iter().filter(|path| named(path, "c")).collect();
    let makefile = ["Makefile", "makefile", "GNUmakefile"]
        .iter()
        .any(|name| std::fs::symlink_metadata(folder.join(name)).is_ok_and(|metadata| metadata.is_file()));
    if makefile || !cpp.is_empty() || !c.is_empty() {
        return native_recipe(folder, makefile, &cpp, &c);
    }
    let executables: Vec<&PathBuf> = files.iter().filter(|path| executable(path)).collect();
    match choose(&executables, |path| stem(path)) {
        Some(program) => Ok(Recipe {
            language: "executable",
            build: None,
            run: format!("./{} {ARGUMENTS}", quote(&relative(folder, program))),
            python: None,
        }),
        None => Err(NoRecipe::Nothing),
    }
}

/// The recipe a [`COMMAND_FILE`] gives, if the folder has one.
fn command_file(folder: &Path) -> Result<Option<Recipe>, NoRecipe> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let path = folder.join(COMMAND_FILE);
    // A regular file of the submission's own, never what a link points to
    // (the referee's environment, a device), and small.
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(&path);
    let file = match file {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err(NoRecipe::CommandFileUnreadable(path)),
    };
    if !file.metadata().is_ok_and(|metadata| metadata.is_file()) {
        return Err(NoRecipe::CommandFileNotRegular(path));
    }
    let mut bytes = Vec::new();
    let _ = file.take(COMMAND_FILE_LIMIT + 1).read_to_end(&mut bytes);
    if bytes.len() as u64 > COMMAND_FILE_LIMIT {
        return Err(NoRecipe::CommandFileTooLarge(path));
    }
    let text = String::from_utf8_lossy(&bytes);
    let (mut build, mut run) = (None, None);
    for (number, line) in text.lines().enumerate().map(|(index, line)| (index + 1, line.trim())) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let slot = match line.split_once(':') {
            Some(("build", command)) => (&mut build, command.trim()),
            Some(("run", command)) => (&mut run, command.trim()),
            _ => (&mut run, line),
        };
        if slot.0.replace(slot.1.to_owned()).is_some() {
            return Err(NoRecipe::SecondCommand { path, line: number });
        }
    }
    let run = run.ok_or(NoRecipe::NoCommand(path))?;
    Ok(Some(Recipe { language: "as its command file says", build, run, python: None }))
}

fn java_recipe(folder: &Path, classes: &[&PathBuf], java: &[&PathBuf]) -> Result<Recipe, NoRecipe> {
    // Compiled classes with a main: run as they are, from the root of
    // their packages.
    let mains: Vec<(PathBuf, String)> = classes
        .iter()
        .filter_map(|path| {
            let (name, main) = class_name(&head(path, LARGEST_READ)?)?;
            (main && java_name(&name, '/')).then_some(((*path).clone(), name))
        })
        .collect();
    if !mains.is_empty() {
        let chosen = choose(&mains.iter().collect::<Vec<_>>(), |(_, name)| simple(name).to_owned())
            .ok_or_else(|| several("classes with a main", mains.iter().map(|(_, name)| name.replace('/', "."))))?;
        let (path, name) = chosen;
        // The root of the class's packages: up one folder per package.
        let depth = name.matches('/').count() + 1;
        let root = path
            .ancestors()
            .nth(depth)
            .filter(|root| root.starts_with(folder))
            .ok_or_else(|| NoRecipe::ClassOutsidePackages(name.replace('/', ".")))?;
        let run = format!("java -cp {} {} {ARGUMENTS}", quote(&relative(folder, root)), name.replace('/', "."));
        return Ok(Recipe { language: "Java", build: None, run, python: None });
    }
    let sources: Vec<(PathBuf, String, String)> = java
        .iter()
        .filter_map(|path| {
            let text = String::from_utf8_lossy(&head(path, LARGEST_READ)?).into_owned();
            let main = text.contains("static void main") || text.contains("void static main");
            let package = package(&text);
            (main && (package.is_empty() || java_name(&package, '.'))).then(|| ((*path).clone(), package, stem(path)))
        })
        .collect();
    let chosen =
        choose(&sources.iter().collect::<Vec<_>>(), |(_, _, name)| name.clone()).ok_or_else(|| {
            match sources.is_empty() {
                true => NoRecipe::NoMain { sources: "Java sources".to_owned(), main: "a main method" },
                false => several("sources with a main", sources.iter().map(|(_, _, name)| name.clone())),
            }
        })?;
    let (path, package, name) = chosen;
    // Every source under the root of the main class's packages, compiled
    // together into the folder's root.
    let depth = if package.is_empty() { 1 } else { package.matches('.').count() + 2 };
    let root = path
        .ancestors()
        .nth(depth)
        .filter(|root| root.starts_with(folder))
        .ok_or_else(|| NoRecipe::SourceOutsidePackages { path: path.clone(), package: package.clone() })?;
    let sources: Vec<String> =
        java.iter().filter(|source| source.starts_with(root)).map(|source| quote(&relative(folder, source))).collect();
    let qualified = if package.is_empty() { name.clone() } else { format!("{package}.{name}") };
    Ok(Recipe {
        language: "Java",
        build: Some(format!("javac -nowarn -d . {}", sources.join(" "))),
        run: format!("java -cp . {qualified} {ARGUMENTS}"),
        python: None,
    })
}

fn python_recipe(folder: &Path, python: &[&PathBuf]) -> Result<Recipe, NoRecipe> {
    let reads_arguments = |path: &&&PathBuf| {
        head(path, LARGEST_READ).is_some_and(|text| String::from_utf8_lossy(&text).contains("sys.argv"))
    };
    let scripts: Vec<&PathBuf> = python.iter().filter(reads_arguments).copied().collect();
    if scripts.is_empty()
        && let Some(recipe) = agent_recipe(folder, python)?
    {
        return Ok(recipe);
    }
    let script = choose(&scripts, |path| stem(path)).ok_or_else(|| match scripts.is_empty() {
        true => NoRecipe::NoArguments,
        false => several("Python scripts that read their arguments", scripts.iter().map(|path| stem(path))),
    })?;
    let script = quote(&relative(folder, script));
    Ok(Recipe { language: "Python", build: None, run: format!("python3 {script} {ARGUMENTS}"), python: Some(script) })
}

/// A Kaggle ConnectX agent among Python files none of which reads its
/// arguments (one that does is a one-move program, which comes first): a
/// file with a top-level `def NAME(obs...)` or `def NAME(obs..., conf...)`
/// (`agent(observation, configuration)`, `my_agent(obs, config)`), played
/// as `connectx:FILE`. Of several, the one named like maxconnect4, else
/// `main.py` (Kaggle's entry point of a submission of several files), else
/// `submission.py` (the file Kaggle's tutorials write).
fn agent_recipe(folder: &Path, python: &[&PathBuf]) -> Result<Option<Recipe>, NoRecipe> {
    let agents: Vec<&PathBuf> = python
        .iter()
        .filter(|path| {
            head(path, LARGEST_READ).is_some_and(|text| String::from_utf8_lossy(&text).lines().any(agent_def))
        })
        .copied()
        .collect();
    if agents.is_empty() {
        return Ok(None);
    }
    let named = |name: &str| agents.iter().find(|path| stem(path) == name).copied();
    let agent = choose(&agents, |path| stem(path))
        .or_else(|| named("main"))
        .or_else(|| named("submission"))
        .ok_or_else(|| several("ConnectX agents", agents.iter().map(|path| stem(path))))?;
    let run = format!("connectx:{}", quote(&relative(folder, agent)));
    Ok(Some(Recipe { language: "ConnectX agent", build: None, run, python: None }))
}

/// Whether `line` defines, at the top level, a function whose parameters
/// look like a ConnectX agent's: `(obs...)` or `(obs..., conf...)`,
/// annotations and defaults aside.
fn agent_def(line: &str) -> bool {
    let Some(parameters) = line.strip_prefix("def ").and_then(|rest| rest.split_once('(')) else { return false };
    let Some((parameters, _)) = parameters.1.split_once(')') else { return false };
    let names: Vec<&str> = parameters
        .split(',')
        .map(|parameter| parameter.split([':', '=']).next().unwrap_or_default().trim())
        .filter(|name| !name.is_empty())
        .collect();
    match names.as_slice() {
        [observation] => observation.starts_with("obs"),
        [observation, configuration] => {
            observation.starts_with("obs") && ["conf", "cfg"].iter().any(|prefix| configuration.starts_with(prefix))
        }
        _ => false,
    }
}

fn native_recipe(folder: &Path, makefile: bool, cpp: &[&PathBuf], c: &[&PathBuf]) -> Result<Recipe, NoRecipe> {
    let (language, compiler, sources) = if cpp.is_empty() { ("C", "gcc", c) } else { ("C++", "g++", cpp) };
    if makefile {
        // Always made (-B): a copy's times say nothing, and a committed
        // binary may be another machine's.
        return Ok(Recipe { language, build: Some("make -B".to_owned()), run: String::new(), python: None });
    }
    let mains: Vec<&PathBuf> = sources
        .iter()
        .filter(|path| {
            head(path, LARGEST_READ).is_some_and(|text| {
                let text = String::from_utf8_lossy(&text);
                text.contains("main(") || text.contains("main (")
            })
        })
        .copied()
        .collect();
    let main = choose(&mains, |path| stem(path)).ok_or_else(|| match mains.is_empty() {
        true => NoRecipe::NoMain { sources: format!("{language} sources"), main: "a main function" },
        false => several("sources with a main", mains.iter().map(|path| stem(path))),
    })?;
    let directory = main.parent().unwrap_or(folder);
    let together: Vec<String> = sources
        .iter()
        .filter(|source| source.parent() == Some(directory))
        .map(|source| quote(&relative(folder, source)))
        .collect();
    let math = if language == "C" { " -lm" } else { "" };
    Ok(Recipe {
        language,
        build: Some(format!("{compiler} -O2 -o maxconnect4 {}{math}", together.join(" "))),
        run: format!("./maxconnect4 {ARGUMENTS}"),
        python: None,
    })
}

/// The program among `candidates` named like maxconnect4 (exactly, case
/// aside, then containing `maxconnect`), else the only one.
fn choose<'a, T>(candidates: &[&'a T], name: impl Fn(&T) -> String) -> Option<&'a T> {
    let lower = |candidate: &&&T| name(candidate).to_lowercase();
    let exact: Vec<_> = candidates.iter().filter(|candidate| lower(candidate) == "maxconnect4").collect();
    let like: Vec<_> = candidates.iter().filter(|candidate| lower(candidate).contains("maxconnect")).collect();
    match (exact.as_slice(), like.as_slice(), candidates) {
        ([one], _, _) | ([], [one], _) => Some(**one),
        ([], [], [one]) => Some(*one),
        _ => None,
    }
}

/// Why no one program could be chosen among several.
fn several(what: &'static str, names: impl Iterator<Item = String>) -> NoRecipe {
    NoRecipe::Several { what, names: names.collect() }
}

/// The executable program a Makefile made in `folder`: named like
/// maxconnect4, or the only new executable.
fn made_program(folder: &Path, before: &[PathBuf]) -> Result<String, NoRecipe> {
    let files = files(folder).ok_or(NoRecipe::TooManyFiles)?;
    let made: Vec<&PathBuf> =
        files.iter().filter(|path| executable(path) && !before.contains(path) && !scripted(path)).collect();
    let all: Vec<&PathBuf> = files.iter().filter(|path| executable(path) && !scripted(path)).collect();
    let program = choose(&all, |path| stem(path)).or_else(|| choose(&made, |path| stem(path)));
    program.map(|program| format!("./{} {ARGUMENTS}", quote(&relative(folder, program)))).ok_or(NoRecipe::NothingMade)
}

/// The regular files of `folder` and its folders, but hidden ones (version
/// control's), sorted, never through a link; none when there are more than
/// [`MOST_FILES`].
fn files(folder: &Path) -> Option<Vec<PathBuf>> {
    fn walk(folder: &Path, depth: usize, found: &mut Vec<PathBuf>) -> Option<()> {
        let Ok(entries) = std::fs::read_dir(folder) else { return Some(()) };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            // A name that is no plain text is never a program's, nor
            // quoted: it could hold a terminal's escapes.
            let name = entry.file_name();
            let Some(name) = name.to_str().filter(|name| !name.chars().any(char::is_control)) else { continue };
            if kind.is_dir() && depth < 6 && !name.starts_with('.') {
                walk(&path, depth + 1, found)?;
            } else if kind.is_file() {
                found.push(path);
                if found.len() > MOST_FILES {
                    return None;
                }
            }
        }
        Some(())
    }
    let mut found = Vec::new();
    walk(folder, 0, &mut found)?;
    found.sort();
    Some(found)
}

/// The first `limit` bytes of the regular file `path`, read by the
/// referee's own code: never through a link, never waiting on a pipe put
/// in its place; none when it is no such file.
fn head(path: &Path, limit: u64) -> Option<Vec<u8>> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let file =
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Whether `path` is a file anyone may execute.
fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::symlink_metadata(path)
        .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

/// Whether `path` is a script or a source, not a program a compiler made.
fn scripted(path: &Path) -> bool {
    let text = head(path, 2).unwrap_or_default();
    text.starts_with(b"#!")
        || path.extension().is_some_and(|extension| {
            ["py", "java", "c", "cpp", "h", "hpp", "txt", "md", "sh", "o"].iter().any(|known| extension == *known)
        })
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A class's name without its package.
fn simple(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// `path` from `folder`, `.` for the folder itself.
fn relative(folder: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(folder).unwrap_or(path);
    if relative.as_os_str().is_empty() { ".".to_owned() } else { relative.to_string_lossy().into_owned() }
}

fn quote(word: &str) -> String {
    shell_words::quote(word).into_owned()
}

/// Whether `name` is a Java class's or package's name, its parts
/// separated by `separator`: letters, digits, `_` and `$`, nothing the
/// command line could take for something else.
fn java_name(name: &str, separator: char) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == separator)
}

/// The package a Java source declares, empty for none.
fn package(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix("package ")?.split(';').next().map(|name| name.trim().to_owned()))
        .unwrap_or_default()
}

/// The name of the class a class file defines (`hw4/maxconnect4`), and
/// whether it has a `main(String[])`, from its constant pool.
fn class_name(bytes: &[u8]) -> Option<(String, bool)> {
    let u16_at = |at: usize| Some(u16::from_be_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]));
    if bytes.get(..4)? != [0xca, 0xfe, 0xba, 0xbe] {
        return None;
    }
    let count = usize::from(u16_at(8)?);
    let mut utf8: Vec<Option<&[u8]>> = vec![None; count];
    let mut classes: Vec<Option<u16>> = vec![None; count];
    let (mut index, mut at) = (1, 10);
    while index < count {
        let tag = *bytes.get(at)?;
        let (length, slots) = match tag {
            1 => (3 + usize::from(u16_at(at + 1)?), 1),
            7 | 8 | 16 | 19 | 20 => (3, 1),
            15 => (4, 1),
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => (5, 1),
            5 | 6 => (9, 2),
            _ => return None,
        };
        match tag {
            1 => utf8[index] = Some(bytes.get(at + 3..at + length)?),
            7 => classes[index] = Some(u16_at(at + 1)?),
            _ => {}
        }
        index += slots;
        at += length;
    }
    let this = usize::from(u16_at(at + 2)?);
    let name = utf8.get(usize::from((*classes.get(this)?)?))?.as_ref()?;
    let has = |text: &[u8]| utf8.iter().flatten().any(|utf8| *utf8 == text);
    let main = has(b"main") && has(b"([Ljava/lang/String;)V");
    Some((String::from_utf8_lossy(name).into_owned(), main))
}

/// A student's program, found and built, ready to play.
pub struct Entrant {
    /// The folder's name, as a player's name.
    pub name: String,
    /// What was found, for the check's line.
    pub found: String,
    /// The player: `cd FOLDER && COMMAND`, or, when no program could be
    /// found or built, one whose first turn says why.
    pub spec: PlayerSpec,
    /// The built copy, kept while the player plays.
    _built: Option<ScratchDir>,
}

/// A class's players, and the means that built them, which keeps their
/// copies until it is dropped.
pub struct Class {
    /// The students' programs, in the order of their folders' names.
    pub entrants: Vec<Entrant>,
    _containment: Containment,
}

/// The players of the class in `class`, one per folder, in the order of
/// their names, each found and built in a copy, contained as `isolation`
/// says (the sandbox's warning written to `warnings` where it is
/// unavailable).
///
/// # Errors
/// When `class` cannot be read or holds no folder, or nothing can be
/// contained here.
pub fn prepare(class: &Path, isolation: Isolation, warnings: &mut dyn std::io::Write) -> Result<Class, Error> {
    let folders = folders(class)?;
    let (containment, warning) = Containment::start(isolation.hiding(class), false, &[])?;
    if let Some(warning) = warning {
        crate::referee::error::warn(warnings, &warning);
    }
    let entrants = folders.iter().map(|folder| entrant(folder, &containment)).collect();
    Ok(Class { entrants, _containment: containment })
}

/// The players' names of the class in `class`, in the order [`prepare`]
/// gives them, without finding or building anything.
///
/// # Errors
/// As [`prepare`].
pub fn names(class: &Path) -> Result<Vec<String>, Error> {
    Ok(folders(class)?.iter().map(|folder| player_name(folder)).collect())
}

/// The students' folders in `class`, sorted; hidden ones left out.
fn folders(class: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(class)
        .map_err(|source| Error::Io { action: "read the class folder", path: class.to_owned(), source })?
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path())
        .collect();
    folders.sort();
    if folders.is_empty() {
        return Err(Error::NoStudents(class.to_owned()));
    }
    Ok(folders)
}

/// A player's name from a folder's: letters, digits, `-`, `_` and `.`,
/// anything else made `_`.
fn player_name(folder: &Path) -> String {
    let name = folder.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let name: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
    if name.starts_with(['-', '.']) { format!("_{name}") } else { name }
}

fn entrant(folder: &Path, containment: &Containment) -> Entrant {
    let name = player_name(folder);
    let cd = format!("cd {} &&", quote(&folder.to_string_lossy()));
    let failed = |found: &str, run: &str, why: String| {
        let run = if run.is_empty() { "(no program)" } else { run };
        let spec = PlayerSpec::unbuilt(format!("{cd} {run}"), why);
        Entrant { name: name.clone(), found: found.to_owned(), spec, _built: None }
    };
    // Copied first, and so measured: only a folder within the limit is
    // looked into, so that what the search for its program reads is
    // bounded too.
    let mut built = match containment.player_dir("build-") {
        Ok(built) => built,
        Err(error) => return failed("not looked at", "", format!("no folder to build it in: {error}")),
    };
    containment.furnish(&mut built, folder);
    match built.home() {
        Home::Missing(why) => return failed("not looked at", "", why.clone()),
        Home::Shown(_) => {
            return failed("not looked at", "", maxconnect4_contain::too_large(containment.limits().disk / 2));
        }
        Home::None | Home::Copied(_) => {}
    }
    let recipe = match recipe(folder) {
        Ok(recipe) => recipe,
        Err(why) => return failed("nothing", "", why.to_string()),
    };
    let mut found = recipe.language.to_owned();
    let before = files(built.path()).unwrap_or_default();
    let mut run = recipe.run.clone();
    if let Some(build) = &recipe.build {
        found = format!("{found}, built with `{build}`");
        let words = ["-c".into(), build.into()];
        let ran = containment.run(Path::new("/bin/sh"), &words, &built, BUILD_TIME, CAPTURE_LIMIT);
        if let Some(passed) = ran.passed {
            // Stopped at a limit (a build that fills its folder, sparse
            // files counted whole): the limit is the reason.
            let limit = crate::protocol::verdict::Forfeit::Limit(passed, containment.limit_of(passed));
            return failed(&found, &run, format!("the build was stopped: {limit}"));
        }
        if ran.ending != Ending::Exited(0) {
            let said = program::last_line(&ran.stderr.tail)
                .or_else(|| program::last_line(&ran.stdout.tail))
                .unwrap_or_else(|| "it said nothing".to_owned());
            return failed(&found, &run, format!("the build failed ({}): {said}", program::describe(&ran.ending)));
        }
        if run.is_empty() {
            run = match made_program(built.path(), &before) {
                Ok(run) => run,
                Err(why) => return failed(&found, "", why.to_string()),
            };
        }
    }
    if let Some(script) = &recipe.python {
        // Python 3 if it compiles the script, else Python 2 if that does.
        let compiles = |python: &str| {
            let check = "import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')";
            let words = ["-c".into(), check.into(), script.into()];
            let ran = containment.run(Path::new(python), &words, &built, BUILD_TIME, CAPTURE_LIMIT);
            ran.ending == Ending::Exited(0)
        };
        if !compiles("python3") && compiles("python2") {
            run = run.replacen("python3", "python2", 1);
        }
        found = format!("{found} {}", if run.starts_with("python2") { 2 } else { 3 });
    }
    // An agent's folder goes inside its `connectx:`.
    let given = match run.strip_prefix("connectx:") {
        Some(file) => format!("connectx:{cd} {file}"),
        None => format!("{cd} {run}"),
    };
    match PlayerSpec::parse(&given) {
        Ok(spec) => {
            let spec = spec.built_in(built.path().to_owned());
            Entrant { name, found, spec, _built: Some(built) }
        }
        Err(error) => failed(&found, &run, error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let folder = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = folder.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        folder
    }

    #[test]
    fn java_sources_in_a_package_are_built_together() {
        let main = "package game.ai;\npublic class MaxConnect4 { public static void main(String[] a) {} }";
        let folder = folder(&[
            ("src/game/ai/MaxConnect4.java", main),
            ("src/game/ai/Board.java", "package game.ai; class Board {}"),
            ("src/game/Util.java", "package game; class Util {}"),
        ]);
        let recipe = recipe(folder.path()).unwrap();
        assert_eq!(
            recipe.build.as_deref(),
            Some("javac -nowarn -d . src/game/Util.java src/game/ai/Board.java src/game/ai/MaxConnect4.java")
        );
        assert_eq!(recipe.run, "java -cp . game.ai.MaxConnect4 one-move {in} {out} {depth}");
    }

    #[test]
    fn several_mains_need_one_named_like_maxconnect4() {
        let main = |name: &str| format!("public class {name} {{ public static void main(String[] a) {{}} }}");
        let folder = folder(&[("Test.java", &main("Test")), ("maxConnect.java", &main("maxConnect"))]);
        assert_eq!(recipe(folder.path()).unwrap().run, "java -cp . maxConnect one-move {in} {out} {depth}");
        let folder = self::folder(&[("A.java", &main("A")), ("B.java", &main("B"))]);
        let several = recipe(folder.path()).unwrap_err();
        assert_eq!(several, NoRecipe::Several { what: "sources with a main", names: vec!["A".into(), "B".into()] });
        assert_eq!(
            several.to_string(),
            "2 sources with a main (A, B) and none named like maxconnect4: say which in maxconnect4-player.txt"
        );
    }

    #[test]
    fn python_c_and_the_command_file() {
        let folder = folder(&[
            ("MaxConnect4Game.py", "class Game: pass"),
            ("suyogsmaxconnect4.py", "import sys\nprint(sys.argv)"),
        ]);
        let recipe = recipe(folder.path()).unwrap();
        assert_eq!(
            (recipe.run.as_str(), recipe.python.as_deref()),
            ("python3 suyogsmaxconnect4.py one-move {in} {out} {depth}", Some("suyogsmaxconnect4.py"))
        );
        let folder =
            self::folder(&[("board.cpp", "int x;"), ("main.cpp", "int main() {}"), ("maxconnect4", "\x7fELF")]);
        assert_eq!(
            super::recipe(folder.path()).unwrap().build.as_deref(),
            Some("g++ -O2 -o maxconnect4 board.cpp main.cpp")
        );
        let folder =
            self::folder(&[(COMMAND_FILE, "# how\nbuild: make game\nrun: ./game one-move {in} {out} {depth}\n")]);
        let recipe = super::recipe(folder.path()).unwrap();
        assert_eq!(
            (recipe.build.as_deref(), recipe.run.as_str()),
            (Some("make game"), "./game one-move {in} {out} {depth}")
        );
        let folder = self::folder(&[("notes.txt", "")]);
        assert_eq!(super::recipe(folder.path()).unwrap_err(), NoRecipe::Nothing);
    }

    #[test]
    fn a_connectx_agent_is_python_that_reads_no_arguments_and_defines_an_agent() {
        let agent = "import numpy as np\n\ndef my_agent(obs, config):\n    return 3\n";
        let helper = "def negamax(board, depth):\n    return 0\n";
        let folder = folder(&[("submission.py", agent), ("helper.py", helper)]);
        let recipe = recipe(folder.path()).unwrap();
        assert_eq!((recipe.language, recipe.run.as_str()), ("ConnectX agent", "connectx:submission.py"));
        // A one-move program comes first, whatever else the folder holds.
        let one_move = "import sys\ndef play(observation, configuration): pass\nprint(sys.argv)\n";
        let folder = self::folder(&[("submission.py", agent), ("maxconnect4.py", one_move)]);
        assert_eq!(super::recipe(folder.path()).unwrap().run, "python3 maxconnect4.py one-move {in} {out} {depth}");
        // Kaggle's entry point of several files is main.py.
        let folder = self::folder(&[("main.py", agent), ("random_agent.py", "def act(observation): return 0\n")]);
        assert_eq!(super::recipe(folder.path()).unwrap().run, "connectx:main.py");
        let folder = self::folder(&[("a.py", agent), ("b.py", agent)]);
        assert_eq!(
            super::recipe(folder.path()).unwrap_err().to_string(),
            "2 ConnectX agents (a, b) and none named like maxconnect4: say which in maxconnect4-player.txt"
        );
        let folder = self::folder(&[("game.py", helper)]);
        assert_eq!(super::recipe(folder.path()).unwrap_err(), NoRecipe::NoArguments);
        for (line, agent) in [
            ("def agent(observation, configuration):", true),
            ("def act(obs: dict, conf=None) -> int:", true),
            ("def act(obs):", true),
            ("def __call__(self, obs, config):", false),
            ("    def agent(obs, config):", false),
            ("def agent(board, config):", false),
            ("def agent(obs, config, extra):", false),
        ] {
            assert_eq!(agent_def(line), agent, "{line}");
        }
    }

    #[test]
    fn names_that_are_no_plain_text_are_never_a_program() {
        let folder = folder(&[("evil\u{1b}]0;pwned\u{7}.py", "import sys\nprint(sys.argv)")]);
        assert_eq!(recipe(folder.path()).unwrap_err(), NoRecipe::Nothing);
        let main = "package game\u{1b}[2J;\npublic class MaxConnect4 { public static void main(String[] a) {} }";
        let folder = self::folder(&[("game/MaxConnect4.java", main)]);
        assert!(matches!(recipe(folder.path()).unwrap_err(), NoRecipe::NoMain { .. }));
        assert!(java_name("hw4/maxconnect4", '/') && java_name("game.ai", '.') && !java_name("a b", '.'));
    }

    #[test]
    fn a_class_files_name_and_main() {
        // A class file made by hand: the constant pool holds the class's
        // name, `main` and its descriptor.
        let mut bytes = vec![0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, 0, 6];
        for text in ["hw4/maxconnect4", "main", "([Ljava/lang/String;)V"] {
            bytes.push(1);
            bytes.extend(u16::try_from(text.len()).unwrap().to_be_bytes());
            bytes.extend(text.as_bytes());
        }
        bytes.extend([7, 0, 1]); // 4: the class named by 1
        bytes.extend([5, 0, 0, 0, 0, 0, 0, 0, 0]); // 5 and 6: a long takes two slots
        bytes.extend([0, 0x21, 0, 4]); // flags, this class
        assert_eq!(class_name(&bytes), Some(("hw4/maxconnect4".to_owned(), true)));
        assert_eq!(class_name(b"not a class"), None);
    }
}
