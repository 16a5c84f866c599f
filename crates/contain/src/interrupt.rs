//! The interrupt handler: on Ctrl-C or SIGTERM no program starts or is
//! judged any more, every process the referee started is killed and its
//! folder removed, before the exit.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::children::{kill_group, registered};
use super::os;

/// The referee's folder, for the interrupt handler to remove.
static ROOT: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Set when the referee is interrupted: from then on no program starts
/// or is judged, so that none cut short is logged before the exit.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What the front end says once the players are stopped.
static SAY: OnceLock<fn()> = OnceLock::new();

/// Makes a stop end by calling `say`: the first one given is kept.
pub fn say_when_stopped(say: fn()) {
    let _ = SAY.set(say);
}

/// Waits for the exit if the referee has been interrupted.
pub(super) fn stop_if_interrupted() {
    while INTERRUPTED.load(Ordering::SeqCst) {
        std::thread::park();
    }
}

pub fn remember_root(path: &Path) {
    *ROOT.lock().unwrap_or_else(PoisonError::into_inner) = Some(path.to_owned());
}

/// What a stop does in the referee: no program starts or is judged from
/// then on, every process the referee started is killed (its process
/// group, and on Linux every child and its tree, registered or not), and
/// its folder removed; then the front end says so.
pub fn stop_players() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    for &leader in registered().iter() {
        kill_group(leader);
    }
    os::kill_children();
    if let Some(root) = ROOT.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
        let _ = std::fs::remove_dir_all(root);
    }
    if let Some(say) = SAY.get() {
        say();
    }
}
