//! The user's own interpreters, and a player's own environment.
//!
//! A command's program is found as the user's shell finds it, on the
//! referee's PATH. Version managers (pyenv, rbenv, nodenv, jenv, asdf) put
//! a *shim* there: a shell script that asks the manager which version
//! applies (from `.python-version` in the current folder, an environment
//! variable or the user's default) and runs it. The manager lives in the
//! home folder, which players never see, so a shim cannot run in the
//! sandbox: the referee asks the manager itself, from the program's folder,
//! and runs the interpreter it names, shown read-only with its
//! installation. Interpreters that are no shims (a virtual environment's,
//! conda's, a JDK unpacked in the home folder, nvm's node) are run as they
//! are, shown with their installation.
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
    #[error("the version manager {manager} of the shim {} cannot be run: {reason}", shim.display())]
    NoManager { manager: String, shim: PathBuf, reason: String },
    #[error("{} which {name}: {reason}", manager.display())]
    CannotAsk { manager: PathBuf, name: String, reason: String },
    /// The manager answered with no interpreter; what it said.
    #[error("the shim {} cannot tell which {name} to run here: {said}", shim.display())]
    NoAnswer { shim: PathBuf, name: String, said: String },
}

/// The program that the shim `found`, run as `name`, stands for when
/// started in `folder`; none when `found` is no shim of a version manager.
/// The manager is asked through `run`.
///
/// # Errors
/// When the manager cannot say, with what it said (a version named in
/// `.python-version` that is not installed, say).
pub fn resolve_shim(found: &Path, name: &OsStr, folder: &Path, run: RunAside) -> Result<Option<PathBuf>, ShimError> {
    // A shim is the user's own: in a folder `shims`, owned by the referee's
    // user or root and writable by no one else. A file a submission brings
    // is never one (the caller looks only at programs found on the PATH).
    if found.parent().and_then(Path::file_name).is_none_or(|parent| parent != "shims") || !trusted(found) {
        return Ok(None);
    }
    // Asked once per folder: the answer does not change while the referee
    // runs, and asking costs a manager's start-up, counted in a turn.
    type Key = (PathBuf, OsString, PathBuf);
    static ANSWERS: Mutex<BTreeMap<Key, Result<Option<PathBuf>, ShimError>>> = Mutex::new(BTreeMap::new());
    let key = (found.to_owned(), name.to_owned(), folder.to_owned());
    if let Some(answer) = ANSWERS.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return answer.clone();
    }
    let answer = ask_manager(found, name, folder, run);
    ANSWERS.lock().unwrap_or_else(PoisonError::into_inner).insert(key, answer.clone());
    answer
}

/// [`resolve_shim`], asked of the manager.
fn ask_manager(found: &Path, name: &OsStr, folder: &Path, run: RunAside) -> Result<Option<PathBuf>, ShimError> {
    // A shim is a short script; its last lines run `MANAGER exec PROGRAM`.
    let Ok(text) = std::fs::read(found) else { return Ok(None) };
    let text = String::from_utf8_lossy(&text[..text.len().min(64 * 1024)]);
    let Some(manager) = manager(&text) else { return Ok(None) };
    let known = Path::new(&manager).file_name().is_some_and(|name| MANAGERS.iter().any(|known| name == *known));
    if !known {
        return Ok(None);
    }
    let manager = super::sandbox::find_program(Path::new(&manager)).map_err(|error| ShimError::NoManager {
        manager: manager.clone(),
        shim: found.to_owned(),
        reason: error.to_string(),
    })?;
    if !trusted(&manager) {
        return Ok(None);
    }
    let folder = if folder.is_dir() { folder } else { Path::new("/") };
    let output = run(Command::new(&manager).arg("which").arg(name).current_dir(folder)).map_err(|error| {
        ShimError::CannotAsk {
            manager: manager.clone(),
            name: name.to_string_lossy().into_owned(),
            reason: error.to_string(),
        }
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
            said: said(&output.stderr).unwrap_or_else(|| format!("`{} which` failed", manager.display())),
        }),
    }
}

/// The version managers whose shims are followed.
const MANAGERS: [&str; 8] = ["pyenv", "rbenv", "nodenv", "jenv", "goenv", "plenv", "phpenv", "asdf"];

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
    fn a_players_environment_holds_only_what_it_needs() {
        let environment = environment(Path::new("/players/red"), Path::new("/tmp"), &["PATH".to_owned()], None);
        let names: Vec<&OsStr> = environment.iter().map(|(name, _)| name.as_os_str()).collect();
        assert!(names.iter().all(|name| ["PATH", "HOME", "TMPDIR"].contains(&name.to_str().unwrap()) || locale(name)));
        assert!(environment.contains(&("HOME".into(), "/players/red".into())));
        assert_eq!(names.iter().filter(|name| **name == "PATH").count(), 1);
    }
}
