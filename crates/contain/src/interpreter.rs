//! The user's own interpreters, and a player's own environment.
//!
//! A command's program is found as the user's shell finds it, on the
//! referee's PATH. Version managers (pyenv, rbenv, nodenv, jenv, asdf) put
//! a *shim* there: a shell script that asks the manager which version
//! applies (from `.python-version` in the current folder, an environment
//! variable or the user's default) and runs it. The manager lives in the
//! home folder, which players never see, so a shim cannot run in the
//! sandbox: the referee asks the manager itself which interpreter the shim
//! stands for, and runs that, shown read-only with its installation.
//! Interpreters that are no shims (a virtual environment's, conda's, a JDK
//! unpacked in the home folder, nvm's node) are run as they are, shown with
//! their installation.
//!
//! The manager runs outside the sandbox, as the user (often root), so it is
//! never let near what a submission controls: it runs in `/`, and the
//! version the program's folder names (its `.python-version`) is read by
//! the referee's own code (no link followed, a few hundred bytes, plain
//! version names only) and handed to the manager in its variable
//! (`PYENV_VERSION`). Asked in the submission's folder, pyenv followed a
//! `.python-version` linked to any file the user could read and quoted its
//! first word in its error, into the published results.
//!
//! A player's environment is its own: the PATH, the locale, `HOME` (its
//! folder), `TMPDIR`, and only the variables the user names: nothing else
//! of the referee's, whose secrets are not the players' to read.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, PoisonError};

/// How the referee runs a helper of its own to its end (the manager, asked
/// which interpreter a shim stands for): as [`Command::output`] does.
pub type RunAside = fn(&mut Command) -> std::io::Result<std::process::Output>;

/// Why a version manager could not say which interpreter its shim stands
/// for (kept, as the answer is, for the referee's run: hence words, not the
/// I/O errors themselves).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShimError {
    /// The manager the shim's script runs is not there, or is not
    /// executable.
    #[error("the version manager {manager} of the shim {} cannot be run: {reason}", shim.display())]
    NoManager {
        /// The manager as the script names it: a path, or a name looked up
        /// on the PATH (`asdf`).
        manager: String,
        /// The shim found on the PATH.
        shim: PathBuf,
        /// Why it cannot be run, in the system's words.
        reason: String,
    },
    /// The manager was found, but asking it `which` failed: it could not
    /// be started, or took too long and was stopped.
    #[error("{} which {name}: {reason}", manager.display())]
    CannotAsk {
        /// The manager found.
        manager: PathBuf,
        /// The name the shim was run as (`python3`).
        name: String,
        /// Why asking failed, in words.
        reason: String,
    },
    /// The manager answered with no interpreter; what it said, short and
    /// escaped.
    #[error("the shim {} cannot tell which {name} to run here: {said}", shim.display())]
    NoAnswer {
        /// The shim found on the PATH.
        shim: PathBuf,
        /// The name the shim was run as (`python3`).
        name: String,
        /// The first line of the manager's error output, short and escaped
        /// (a version that is not installed, say), or that it failed.
        said: String,
    },
    /// The program's version file is no plain file of plain version names;
    /// why, with a short escaped excerpt.
    #[error("the program's {file} {why}")]
    VersionFile {
        /// The version file's name (`.python-version`).
        file: &'static str,
        /// Why it was refused, following the file's name in the message.
        why: String,
    },
}

/// The most of a version file read: a version name or a few.
const VERSION_FILE_LIMIT: u64 = 256;

/// The longest version name taken (`miniconda3-py39_23.11.0-2` is 25).
const LONGEST_VERSION: usize = 64;

/// The program that the shim `found`, run as `name`, stands for, for a
/// program in `folder` (its copy); none when `found` is no shim of a
/// version manager. The manager is asked through `run`, in `/`, told the
/// version `folder` names.
///
/// # Errors
/// When the folder's version file cannot be taken, or the manager cannot
/// say, with what it said (a version that is not installed, say).
pub fn resolve_shim(found: &Path, name: &OsStr, folder: &Path, run: RunAside) -> Result<Option<PathBuf>, ShimError> {
    // A shim is the user's own: in a folder `shims`, owned by the referee's
    // user or root and writable by no one else. A file a submission brings
    // is never one (the caller looks only at programs found on the PATH).
    if found.parent().and_then(Path::file_name).is_none_or(|parent| parent != "shims") || !trusted(found) {
        return Ok(None);
    }
    // A shim is a short script; its last lines run `MANAGER exec PROGRAM`.
    let Some(text) = read_bounded(found, 64 * 1024) else { return Ok(None) };
    let Some(manager) = manager(&String::from_utf8_lossy(&text)) else { return Ok(None) };
    let Some(kind) = Path::new(&manager).file_name().and_then(|name| MANAGERS.iter().find(|known| name == known.name))
    else {
        return Ok(None);
    };
    let version = kind.file.map(|file| version_named(folder, file)).transpose()?.flatten();
    // Asked once per version: the answer does not change while the referee
    // runs, and asking costs a manager's start-up, counted in a turn.
    type Key = (PathBuf, OsString, Option<String>);
    static ANSWERS: Mutex<BTreeMap<Key, Result<Option<PathBuf>, ShimError>>> = Mutex::new(BTreeMap::new());
    let key = (found.to_owned(), name.to_owned(), version.clone());
    if let Some(answer) = ANSWERS.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return answer.clone();
    }
    let told = version.map(|version| (kind.variable, version));
    let answer = ask_manager(found, &manager, name, told, run);
    ANSWERS.lock().unwrap_or_else(PoisonError::into_inner).insert(key, answer.clone());
    answer
}

/// [`resolve_shim`], asked of `manager` in `/`, with `told` (a variable
/// and the version it names) in its environment.
fn ask_manager(
    found: &Path,
    manager: &str,
    name: &OsStr,
    told: Option<(&str, String)>,
    run: RunAside,
) -> Result<Option<PathBuf>, ShimError> {
    let manager = super::sandbox::find_program(Path::new(manager)).map_err(|error| ShimError::NoManager {
        manager: manager.to_owned(),
        shim: found.to_owned(),
        reason: error.to_string(),
    })?;
    if !trusted(&manager) {
        return Ok(None);
    }
    let mut command = Command::new(&manager);
    command.arg("which").arg(name).current_dir("/");
    if let Some((variable, version)) = told {
        command.env(variable, version);
    }
    let output = run(&mut command).map_err(|error| ShimError::CannotAsk {
        manager: manager.clone(),
        name: name.to_string_lossy().into_owned(),
        reason: error.to_string(),
    })?;
    let said = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes).lines().map(str::trim).find(|line| !line.is_empty()).map(str::to_owned)
    };
    let program = said(&output.stdout).map(PathBuf::from).filter(|path| path.is_absolute() && path.is_file());
    match program {
        Some(program) if output.status.success() => Ok(Some(program)),
        _ => Err(ShimError::NoAnswer {
            shim: found.to_owned(),
            name: name.to_string_lossy().into_owned(),
            said: excerpt(&said(&output.stderr).unwrap_or_else(|| format!("`{} which` failed", manager.display()))),
        }),
    }
}

/// The versions `folder`'s version file `file` names, joined with `:` as
/// the managers' variables take them; none without such a file. Read by the
/// referee's own code: the file itself, never a link, at most
/// [`VERSION_FILE_LIMIT`] bytes, lines starting with `#` aside, each name
/// plain (letters, digits, `.`, `-`, `_`, not starting with `.` or `-`).
///
/// # Errors
/// When the file is a link or no regular file, is too long, or names
/// something that is no plain version name.
fn version_named(folder: &Path, file: &'static str) -> Result<Option<String>, ShimError> {
    let path = folder.join(file);
    let refused = |why: String| ShimError::VersionFile { file, why };
    let Some(bytes) = open_plain(&path, file)? else { return Ok(None) };
    let text = String::from_utf8_lossy(&bytes);
    let mut versions = Vec::new();
    for line in text.lines().map(str::trim).filter(|line| !line.starts_with('#')) {
        for word in line.split_whitespace() {
            let plain = word.len() <= LONGEST_VERSION
                && !word.starts_with(['.', '-'])
                && word.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
            if !plain {
                return Err(refused(format!(
                    "names no version: {}: a version is letters, digits, `.`, `-` and `_`",
                    excerpt(word)
                )));
            }
            versions.push(word);
        }
    }
    Ok((!versions.is_empty()).then(|| versions.join(":")))
}

/// The bytes of the version file `file` at `path`, at most
/// [`VERSION_FILE_LIMIT`]: none when there is nothing there.
///
/// # Errors
/// When it is a link, no regular file or longer.
fn open_plain(path: &Path, file: &'static str) -> Result<Option<Vec<u8>>, ShimError> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let refused = |why: String| ShimError::VersionFile { file, why };
    let opened = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path);
    let opened = match opened {
        Ok(opened) => opened,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) if error.raw_os_error() == Some(libc::ELOOP) => {
            return Err(refused("is a symbolic link: the referee reads only the program's own files".to_owned()));
        }
        Err(error) => return Err(refused(format!("cannot be read: {error}"))),
    };
    if !opened.metadata().is_ok_and(|metadata| metadata.is_file()) {
        return Err(refused("is not a regular file".to_owned()));
    }
    let mut bytes = Vec::new();
    let read = opened.take(VERSION_FILE_LIMIT + 1).read_to_end(&mut bytes);
    read.map_err(|error| refused(format!("cannot be read: {error}")))?;
    if bytes.len() as u64 > VERSION_FILE_LIMIT {
        return Err(refused(format!("holds more than {VERSION_FILE_LIMIT} bytes: it names a version")));
    }
    Ok(Some(bytes))
}

/// At most `limit` bytes of the file `path`, through no link.
fn read_bounded(path: &Path, limit: u64) -> Option<Vec<u8>> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let file =
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// `text` as it may be quoted to the user: at most 80 characters of its
/// first line, anything but printable ASCII escaped.
#[must_use]
fn excerpt(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let mut shown = String::new();
    for c in line.chars().take(80) {
        if c == ' ' || c.is_ascii_graphic() {
            shown.push(c);
        } else {
            shown.extend(c.escape_default());
        }
    }
    if line.chars().count() > 80 {
        shown.push_str("...");
    }
    shown
}

/// A version manager whose shims are followed: its name, and the file in
/// a program's folder that names a version and the variable that takes it
/// (asdf's `.tool-versions` names a version per tool and is not read: its
/// shims run the user's own choice).
struct Manager {
    name: &'static str,
    file: Option<&'static str>,
    variable: &'static str,
}

/// The version managers whose shims are followed.
const MANAGERS: [Manager; 8] = [
    Manager { name: "pyenv", file: Some(".python-version"), variable: "PYENV_VERSION" },
    Manager { name: "rbenv", file: Some(".ruby-version"), variable: "RBENV_VERSION" },
    Manager { name: "nodenv", file: Some(".node-version"), variable: "NODENV_VERSION" },
    Manager { name: "jenv", file: Some(".java-version"), variable: "JENV_VERSION" },
    Manager { name: "goenv", file: Some(".go-version"), variable: "GOENV_VERSION" },
    Manager { name: "plenv", file: Some(".perl-version"), variable: "PLENV_VERSION" },
    Manager { name: "phpenv", file: Some(".php-version"), variable: "PHPENV_VERSION" },
    Manager { name: "asdf", file: None, variable: "" },
];

/// Whether `path` and its folders are the user's own: owned by the
/// referee's user or root, and writable by no one else.
fn trusted(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let me = rustix::process::geteuid().as_raw();
    path.ancestors().all(|path| {
        std::fs::metadata(path).is_ok_and(|metadata| {
            let sticky = metadata.mode() & 0o1000 != 0;
            (metadata.uid() == me || metadata.uid() == 0) && (metadata.mode() & 0o022 == 0 || sticky)
        })
    })
}

/// The version manager a shim's script runs: the word before `exec` in
/// `exec "/root/.pyenv/libexec/pyenv" exec "$program" "$@"` (pyenv, rbenv,
/// nodenv, jenv) or `exec asdf exec "python3" "$@"` (asdf).
fn manager(script: &str) -> Option<String> {
    script.lines().rev().find_map(|line| {
        let words = shell_words::split(line.trim()).ok()?;
        match words.as_slice() {
            [first, manager, second, ..] if first == "exec" && second == "exec" => Some(manager.clone()),
            _ => None,
        }
    })
}

/// Whether the variable `name` is part of the locale.
fn locale(name: &OsStr) -> bool {
    let name = name.as_encoded_bytes();
    name == b"LANG" || name == b"LANGUAGE" || name.starts_with(b"LC_")
}

/// A player's whole environment: the referee's PATH (with `first` before it,
/// the folder of an interpreter a shim stood for, so that the program's own
/// children find the same one) and locale, `HOME` its folder, `TMPDIR` its
/// temporary folder, and the referee's variables named in `passed`.
#[must_use]
pub fn environment(home: &Path, tmp: &Path, passed: &[String], first: Option<&Path>) -> Vec<(OsString, OsString)> {
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    let path = match first {
        Some(first) => {
            std::env::join_paths(std::iter::once(first.to_owned()).chain(std::env::split_paths(&path))).unwrap_or(path)
        }
        None => path,
    };
    let mut environment = vec![
        (OsString::from("PATH"), path),
        (OsString::from("HOME"), home.as_os_str().to_owned()),
        (OsString::from("TMPDIR"), tmp.as_os_str().to_owned()),
    ];
    environment.extend(std::env::vars_os().filter(|(name, _)| locale(name)));
    for name in passed {
        if let Some(value) = std::env::var_os(name) {
            environment.retain(|(kept, _)| kept != name.as_str());
            environment.push((name.into(), value));
        }
    }
    environment
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manager_of_each_kind_of_shim() {
        let pyenv = "#!/usr/bin/env bash\nset -e\n[ -n \"$PYENV_DEBUG\" ] && set -x\n\nprogram=\"${0##*/}\"\n\n\
                     export PYENV_ROOT=\"/root/.pyenv\"\nexec \"/root/.pyenv/libexec/pyenv\" exec \"$program\" \"$@\"\n";
        assert_eq!(manager(pyenv).as_deref(), Some("/root/.pyenv/libexec/pyenv"));
        assert_eq!(manager("#!/usr/bin/env bash\n# asdf-plugin: python 3.12.1\nexec asdf exec \"python3\" \"$@\" # asdf_allow: ' asdf '\n").as_deref(), Some("asdf"));
        assert_eq!(manager("#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n"), None);
    }

    #[test]
    fn a_version_file_is_read_as_plain_names_never_through_a_link() {
        let folder = tempfile::tempdir().unwrap();
        let at = |name: &str| folder.path().join(name);
        assert_eq!(version_named(folder.path(), ".python-version"), Ok(None));
        std::fs::write(at(".python-version"), "# mine\r\n3.11.7\r\n2.7.18 \n").unwrap();
        assert_eq!(version_named(folder.path(), ".python-version").unwrap().as_deref(), Some("3.11.7:2.7.18"));
        std::fs::write(at(".python-version"), "../../etc\n").unwrap();
        let error = version_named(folder.path(), ".python-version").unwrap_err().to_string();
        assert_eq!(
            error,
            "the program's .python-version names no version: ../../etc: a version is letters, digits, `.`, `-` and `_`"
        );
        std::fs::write(at("secret"), "TOPSECRET-XYZ").unwrap();
        std::fs::remove_file(at(".python-version")).unwrap();
        std::os::unix::fs::symlink(at("secret"), at(".python-version")).unwrap();
        let error = version_named(folder.path(), ".python-version").unwrap_err().to_string();
        assert!(error.contains("is a symbolic link") && !error.contains("TOPSECRET"), "{error}");
        std::fs::remove_file(at(".python-version")).unwrap();
        std::fs::write(at(".python-version"), vec![b'3'; 300]).unwrap();
        assert!(
            version_named(folder.path(), ".python-version").unwrap_err().to_string().contains("more than 256 bytes")
        );
    }

    #[test]
    fn an_excerpt_is_short_and_escaped() {
        assert_eq!(excerpt("a\u{1b}[2Jb\nsecond"), "a\\u{1b}[2Jb");
        assert_eq!(excerpt(&"x".repeat(100)), format!("{}...", "x".repeat(80)));
    }

    #[test]
    fn a_players_environment_holds_only_what_it_needs() {
        let environment = environment(Path::new("/players/red"), Path::new("/tmp"), &["PATH".to_owned()], None);
        let names: Vec<&OsStr> = environment.iter().map(|(name, _)| name.as_os_str()).collect();
        assert!(names.iter().all(|name| ["PATH", "HOME", "TMPDIR"].contains(&name.to_str().unwrap()) || locale(name)));
        assert!(environment.contains(&("HOME".into(), "/players/red".into())));
        assert_eq!(names.iter().filter(|name| **name == "PATH").count(), 1);
    }
}
