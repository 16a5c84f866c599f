//! What the program does when it is asked to stop: SIGINT (Ctrl-C), SIGTERM
//! or SIGHUP.
//!
//! Two parts must tidy up then: [`whole`](crate::whole) removes a named
//! temporary file it is writing, and the referee kills its players' process
//! groups and says so. One watcher serves both, in one order, so that
//! neither silences the other. On a stop:
//! 1. the files listed by [`remove_on_stop`] are removed;
//! 2. the program ends as [`exit_on_stop`] asked (after its tidying, with
//!    status 128 plus the signal's number), or else as the signal would
//!    have ended it (its default action, raised again).
//!
//! The signals are taken by a thread of its own (`signal-hook`'s handler only
//! wakes it), so what runs on a stop is ordinary code that may lock,
//! allocate and print. The watcher starts when first needed: until then the
//! signals keep their default actions. A signal ignored when it starts (a
//! program run under `nohup`) stays ignored.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// What a stop does, beside ending the program.
struct OnStop {
    /// The files to remove, each with the number of its [`Listed`].
    files: Vec<(u64, PathBuf)>,
    /// The number of the next [`Listed`].
    next: u64,
    /// Run after the files are removed, before exiting with 128 plus the
    /// signal's number; `None`: end as the signal would have.
    tidy: Option<fn()>,
}

static ON_STOP: Mutex<OnStop> = Mutex::new(OnStop { files: Vec::new(), next: 0, tidy: None });

fn on_stop() -> MutexGuard<'static, OnStop> {
    ON_STOP.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A file removed if the program is stopped; dropping this (once the file
/// is renamed or deleted) forgets it.
#[derive(Debug)]
pub struct Listed {
    number: u64,
}

impl Drop for Listed {
    fn drop(&mut self) {
        on_stop().files.retain(|&(number, _)| number != self.number);
    }
}

/// Makes a file with `make` (which gives back something naming it) and
/// removes it if the program is stopped before the returned [`Listed`] is
/// dropped. The file is made while the list is held, so a stop either finds
/// it listed or comes first, and then it is never made.
///
/// # Errors
/// What `make` returns.
pub fn remove_on_stop<T: AsRef<Path>>(make: impl FnOnce() -> io::Result<T>) -> io::Result<(T, Listed)> {
    watch();
    let mut on_stop = on_stop();
    let made = make()?;
    let number = on_stop.next;
    on_stop.next += 1;
    on_stop.files.push((number, made.as_ref().to_owned()));
    Ok((made, Listed { number }))
}

/// Makes a stop run `tidy` (after the listed files are removed), then exit
/// with status 128 plus the signal's number.
pub fn exit_on_stop(tidy: fn()) {
    on_stop().tidy = Some(tidy);
    watch();
}

#[cfg(unix)]
fn watch() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use std::sync::Once;

    static WATCHING: Once = Once::new();
    WATCHING.call_once(|| {
        // Taken in the watcher's thread, which says when it has them: once
        // this returns, a stop is never missed.
        let (ready, taken) = std::sync::mpsc::channel();
        let watcher = std::thread::Builder::new().name("signals".to_owned()).spawn(move || {
            let signals = [SIGINT, SIGTERM, SIGHUP].into_iter().filter(|&signal| !ignored(signal));
            let signals = signal_hook::iterator::Signals::new(signals);
            let _ = ready.send(());
            // Without them, the signals keep their default actions.
            let Ok(mut signals) = signals else { return };
            if let Some(signal) = signals.forever().next() {
                stop(signal);
            }
        });
        // Without a thread, the signals are not taken at all.
        if watcher.is_ok() {
            let _ = taken.recv();
        }
    });
}

#[cfg(not(unix))]
fn watch() {}

/// Whether `signal` is ignored: inherited so from the parent (`nohup`).
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    // SAFETY: with no new action, sigaction only reads the current one into
    // `current`, a zeroed sigaction (a valid value of that plain C struct).
    // Neither rustix nor signal-hook reads a signal's action.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0 && current.sa_sigaction == libc::SIG_IGN
    }
}

/// Removes the listed files and ends the program, for `signal`.
#[cfg(unix)]
fn stop(signal: i32) -> ! {
    // Held to the end: no file is listed, nor made, from now on.
    let on_stop = on_stop();
    for (_, path) in &on_stop.files {
        let _ = std::fs::remove_file(path);
    }
    if let Some(tidy) = on_stop.tidy {
        tidy();
        std::process::exit(128 + signal);
    }
    // The default action of these signals ends the program; emulating it
    // aborts if it cannot.
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::abort()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_listed(path: &Path) -> bool {
        on_stop().files.iter().any(|(_, listed)| listed == path)
    }

    /// Makes an empty file at `path` for [`remove_on_stop`].
    fn make<'a>(path: &'a Path) -> impl FnOnce() -> io::Result<&'a Path> {
        move || std::fs::write(path, "").map(|()| path)
    }

    #[test]
    fn a_file_is_listed_once_made_until_its_listing_is_dropped() {
        let folder = tempfile::tempdir().unwrap();
        let made = folder.path().join("made");
        let (_, listing) = remove_on_stop(make(&made)).unwrap();
        assert!(is_listed(&made));
        drop(listing);
        assert!(!is_listed(&made) && made.exists(), "forgotten, not removed");
        let unmade = folder.path().join("no folder/unmade");
        assert!(remove_on_stop(make(&unmade)).is_err());
        assert!(!is_listed(&unmade));
    }
}
