//! Stand-ins: [`Containment::start`](super::Containment::start) refuses
//! before any of these is reached.
use std::path::Path;
use std::time::Instant;

use super::outcome::{Polled, Stopped, Stream};

pub struct Process;

pub fn become_subreaper() {}
pub fn remember_root(_: &Path) {}

pub fn run_aside(command: &mut std::process::Command) -> std::io::Result<std::process::Output> {
    command.output()
}

pub fn spawn(
    _: std::process::Command,
    _: bool,
    _: Option<(std::io::PipeReader, std::io::PipeWriter)>,
) -> std::io::Result<(Process, Option<std::process::ChildStdin>)> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

impl Process {
    pub fn poll(&mut self, _: Option<Instant>, _: &mut dyn FnMut(Stream, &[u8])) -> Polled {
        unreachable!("no process is started on this system")
    }
    pub fn stop(&mut self, _: &mut dyn FnMut(Stream, &[u8])) -> Stopped {
        unreachable!("no process is started on this system")
    }
    pub fn is_open(&self, _: Stream) -> bool {
        unreachable!("no process is started on this system")
    }
}
