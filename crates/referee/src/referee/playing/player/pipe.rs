//! A bot that talks on its standard input and output for a whole game (a
//! moderator bot, a coordinator engine): started once, contained like a
//! one-move program, and read against deadlines. What is said and what it
//! means are the protocol's host side ([`PipeHost`], in `protocol`); this
//! only carries its steps out, moving the bytes and applying the limits.
//!
//! Its output is read with [`Contained::poll`] in the referee's thread, so
//! nothing it does can block the referee past a turn's deadline: a bot that
//! floods (more than [`LINE_LIMIT`] bytes without an answer), closes its
//! standard output, exits or hangs is [`Silence`]d, which the protocol turns
//! into a forfeit, and one that passes a limit forfeits for that. What was
//! said each way and the end of its stderr are kept for the game's output
//! directory.

use std::io::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use super::{Ask, Competitor, End, Turn};
use crate::protocol::host::{Fault, PipeHost, Silence, Situation, Step, Then};
use crate::protocol::verdict::{Forfeit, IllegalMove};
use crate::referee::Error;
use crate::referee::console::Console;
use maxconnect4_contain::captures::Captures;
use maxconnect4_contain::limits::Passed;
use maxconnect4_contain::scratch::ScratchDir;
use maxconnect4_contain::template::{Substitution, Template};
use maxconnect4_contain::turn::{CAPTURE_LIMIT, describe, last_line, section, shown};
use maxconnect4_contain::{Captured, Contained, Containment, Polled, StartError, Stream};

/// The most a bot may print without completing an answer: answers are a few
/// bytes, so this only stops a bot that floods the referee.
pub const LINE_LIMIT: usize = crate::protocol::LINE_LIMIT;

/// How long a bot whose standard output closed has to end by itself, so
/// that its exit status can be told: exiting takes milliseconds.
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// Why no answer came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoAnswer {
    /// The bot fell silent: the protocol says what that costs.
    Silence(Silence),
    /// It passed one of its limits: the forfeit that says which.
    Limit(Forfeit),
}

/// Why a bot is not running.
#[derive(Debug, thiserror::Error)]
pub enum Gone {
    /// It could not be started.
    #[error(transparent)]
    NotStarted(StartError),
    /// It ended, and how is not known here.
    #[error("it has ended")]
    HasEnded,
    /// It ended: how, in words.
    #[error("it ended ({0})")]
    Ended(String),
    /// The referee stopped it.
    #[error("it has been stopped")]
    Stopped,
}

/// Why a line could not be sent to a bot, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// It is not running: why.
    #[error("{0}")]
    Gone(String),
    /// It closed its standard input, or ended while being written to.
    #[error("it no longer reads its standard input")]
    Closed,
}

/// A running bot, or why it could not be started.
pub struct Conversation {
    /// Stopped (dropped) before the folder it runs in is removed.
    process: Result<Contained, Gone>,
    /// The forfeit for each limit it may pass.
    limits: [Forfeit; 3],
    /// The CPU time it may use on one answer, if not the answer's time.
    cpu: Option<Duration>,
    /// The bot's folder, removed when the conversation is dropped.
    _directory: ScratchDir,
    command: String,
    /// Output read and not yet taken as an answer.
    pending: Vec<u8>,
    /// The messages each way, `>` to the bot and `<` from it.
    exchange: Captured,
    stderr: Captured,
}

impl Conversation {
    /// Starts `template` in `directory`, with `{depth}` replaced; a failure
    /// to start is kept, to be the bot's forfeit on its first turn.
    #[must_use]
    pub fn start(
        containment: &Containment,
        template: &Template,
        depth: u32,
        directory: ScratchDir,
        base: &Path,
    ) -> Conversation {
        Conversation::start_after(containment, template, depth, directory, base, &[])
    }

    /// As [`start`](Conversation::start), the program given the words
    /// `leading` before the template's arguments: each word, and how the
    /// command kept with the output shows it (a harness's source given to
    /// `python3 -c` is shown by name).
    #[must_use]
    pub fn start_after(
        containment: &Containment,
        template: &Template,
        depth: u32,
        mut directory: ScratchDir,
        base: &Path,
        leading: &[(&str, &str)],
    ) -> Conversation {
        template.furnish(containment, &mut directory, base);
        let values = Substitution { input: None, output: None, depth };
        let (program, mut args) = template.command_line(&values, base, directory.copy_of_home());
        let shown = leading.iter().map(|(_, shown)| (*shown).to_owned());
        let words = args.iter().map(|arg| arg.to_string_lossy().into_owned());
        let command =
            shell_words::join(std::iter::once(program.to_string_lossy().into_owned()).chain(shown).chain(words));
        args.splice(0..0, leading.iter().map(|(word, _)| std::ffi::OsString::from(word)));
        let process = containment.spawn(&program, &args, &directory, true).map_err(Gone::NotStarted);
        Conversation {
            process,
            limits: [Passed::Memory, Passed::Processes, Passed::Disk]
                .map(|passed| Forfeit::Limit(passed, containment.limit_of(passed))),
            cpu: containment.limits().cpu,
            _directory: directory,
            command,
            pending: Vec::new(),
            exchange: Captured::default(),
            stderr: Captured::default(),
        }
    }

    /// `forfeit`, its reason ending with the last line the bot wrote on
    /// stderr, when it wrote one: often the cause (a stack trace's last
    /// line).
    #[must_use]
    pub fn with_last_words(&self, forfeit: Forfeit) -> Forfeit {
        let Some(line) = last_line(&self.stderr.tail) else { return forfeit };
        let said = |reason: String| format!("{reason}; its last line on stderr: '{line}'");
        match forfeit {
            Forfeit::FailedToStart(reason) => Forfeit::FailedToStart(said(reason)),
            Forfeit::NoOutput(reason) => Forfeit::NoOutput(said(reason)),
            Forfeit::Garbage(reason) => Forfeit::Garbage(said(reason)),
            other => other,
        }
    }

    /// Why the bot is not running, if it is not.
    #[must_use]
    pub fn failed(&self) -> Option<&Gone> {
        self.process.as_ref().err()
    }

    /// Sends one line.
    ///
    /// # Errors
    /// When the bot was never started, or no longer reads its standard
    /// input (it ended, or closed it).
    pub fn send(&mut self, message: &str) -> Result<(), SendError> {
        let line = format!("{message}\n");
        self.exchange.push(format!("> {line}").as_bytes(), CAPTURE_LIMIT);
        let process = self.process.as_mut().map_err(|error| SendError::Gone(error.to_string()))?;
        // Messages are a few bytes and a game sends a few kilobytes at most,
        // well under a pipe's buffer, so this never waits on the bot.
        let written = process.stdin.as_mut().map(|stdin| stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()));
        match written {
            Some(Ok(())) => Ok(()),
            _ => Err(SendError::Closed),
        }
    }

    /// Waits until `take` finds an answer in what the bot printed (it is
    /// given the unread output, and whether no more will come, and removes
    /// what it takes), or until `deadline`, the bot's end or a flood.
    ///
    /// # Errors
    /// Why no answer came.
    pub fn answer<T>(
        &mut self,
        deadline: Instant,
        take: impl FnMut(&mut Vec<u8>, bool) -> Option<T>,
    ) -> Result<T, NoAnswer> {
        let silence = self.silence(deadline, take);
        // A bot the kernel stopped at a limit is judged by the limit.
        match (&silence, self.process.as_ref().ok().and_then(Contained::passed)) {
            (Err(_), Some(passed)) => Err(NoAnswer::Limit(self.limit(passed))),
            _ => silence,
        }
    }

    /// The forfeit for passing `passed`.
    fn limit(&self, passed: Passed) -> Forfeit {
        let index = match passed {
            Passed::Memory => 0,
            Passed::Processes => 1,
            Passed::Disk | Passed::Cpu => 2,
        };
        self.limits[index].clone()
    }

    /// [`answer`](Conversation::answer), limits aside.
    fn silence<T>(
        &mut self,
        deadline: Instant,
        mut take: impl FnMut(&mut Vec<u8>, bool) -> Option<T>,
    ) -> Result<T, NoAnswer> {
        // CPU time counts against an answer beside wall time, as for a
        // one-move program: all the bot's processes together, from now.
        let cpu = || self.process.as_ref().ok().and_then(Contained::cpu);
        let (cpu_before, budget) =
            (cpu(), self.cpu.unwrap_or_else(|| deadline.saturating_duration_since(Instant::now())));
        let mut looked = Instant::now();
        loop {
            let open = self.process.as_ref().is_ok_and(|process| process.is_open(Stream::Stdout));
            if let Some(answer) = take(&mut self.pending, !open) {
                return Ok(answer);
            }
            if self.pending.len() > LINE_LIMIT {
                return Err(NoAnswer::Silence(Silence::Flood));
            }
            if !open {
                return Err(NoAnswer::Silence(Silence::Gone(self.how_it_went(deadline))));
            }
            let check = (looked + maxconnect4_contain::CPU_CHECK).min(deadline);
            match self.poll(check) {
                Polled::Output => {}
                Polled::Ended => return Err(NoAnswer::Silence(Silence::Gone(self.how_it_went(deadline)))),
                Polled::Deadline if check == deadline => return Err(NoAnswer::Silence(Silence::Deadline)),
                Polled::Deadline => {}
            }
            // Not on every piece of output: a walk of its folder is not free.
            if looked.elapsed() < maxconnect4_contain::CPU_CHECK {
                continue;
            }
            looked = Instant::now();
            // Its memory, processes and folder, as after its turn: stopped
            // at a limit, not at the deadline.
            if let Some(passed) = self.process.as_ref().ok().and_then(Contained::passed) {
                return Err(NoAnswer::Limit(self.limit(passed)));
            }
            let used = self.process.as_ref().ok().and_then(Contained::cpu);
            if let (Some(before), Some(now)) = (cpu_before, used)
                && now.saturating_sub(before) > budget
            {
                let limit = u64::try_from(budget.as_millis()).unwrap_or(u64::MAX);
                return Err(NoAnswer::Limit(Forfeit::Limit(Passed::Cpu, limit)));
            }
        }
    }

    /// What the bot printed since the last answer was taken, waiting at
    /// most a moment: an answer nobody asked for.
    pub fn unasked(&mut self) -> Option<String> {
        if self.process.is_ok() {
            self.poll(Instant::now() + Duration::from_millis(1));
        }
        let text = String::from_utf8_lossy(&self.pending).trim().to_owned();
        (!text.is_empty()).then_some(text)
    }

    /// Notes an answer taken from the output, for the captured exchange.
    pub fn heard(&mut self, answer: &str) {
        self.exchange.push(format!("< {answer}\n").as_bytes(), CAPTURE_LIMIT);
    }

    /// Reads what is there until `deadline`.
    fn poll(&mut self, deadline: Instant) -> Polled {
        let Ok(process) = &mut self.process else { return Polled::Ended };
        let (pending, stderr) = (&mut self.pending, &mut self.stderr);
        process.poll(Some(deadline), &mut |stream, bytes| match stream {
            Stream::Stdout => keep(pending, bytes),
            Stream::Stderr => stderr.push(bytes, CAPTURE_LIMIT),
        })
    }

    /// The bot's standard output has closed: waits a moment for it to end,
    /// and says how it went.
    fn how_it_went(&mut self, deadline: Instant) -> String {
        let grace = deadline.min(Instant::now() + EXIT_GRACE);
        loop {
            match self.poll(grace) {
                Polled::Output => {}
                Polled::Ended => {
                    let process = std::mem::replace(&mut self.process, Err(Gone::HasEnded));
                    return match process {
                        Ok(process) => {
                            let ended = Gone::Ended(describe(&self.stop(process).ending));
                            let said = ended.to_string();
                            self.process = Err(ended);
                            said
                        }
                        Err(gone) => gone.to_string(),
                    };
                }
                Polled::Deadline => return "it closed its standard output".to_owned(),
            }
        }
    }

    /// Stops the process and notes how it ended.
    fn stop(&mut self, process: Contained) -> maxconnect4_contain::Stopped {
        let (pending, stderr) = (&mut self.pending, &mut self.stderr);
        let stopped = process.stop(&mut |stream, bytes| match stream {
            Stream::Stdout => keep(pending, bytes),
            Stream::Stderr => stderr.push(bytes, CAPTURE_LIMIT),
        });
        self.exchange.push(
            format!("=== {}, {}, {} CPU\n", describe(&stopped.ending), shown(stopped.wall), shown(stopped.cpu))
                .as_bytes(),
            CAPTURE_LIMIT,
        );
        stopped
    }

    /// Gives the bot until `grace` to end by itself (none: stops it at once),
    /// stops it and everything it started, and keeps the exchange and its
    /// stderr in `captures`.
    ///
    /// # Errors
    /// When the captured output cannot be written.
    pub fn finish(&mut self, grace: Option<Instant>, captures: &mut Captures) -> Result<(), Error> {
        if let Some(grace) = grace {
            while self.process.is_ok() && self.poll(grace) == Polled::Output {}
        }
        if let Ok(process) = std::mem::replace(&mut self.process, Err(Gone::Stopped)) {
            self.stop(process);
        }
        let mut text = format!("=== {}\n", self.command).into_bytes();
        let mut unread = Captured::default();
        unread.push(&self.pending, CAPTURE_LIMIT);
        for (name, captured) in
            [("exchange", &self.exchange), ("stdout not taken as an answer", &unread), ("stderr", &self.stderr)]
        {
            text.extend(section(name, captured));
        }
        Ok(captures.append(&text)?)
    }
}

/// Adds `bytes` to the unread output, up to just over [`LINE_LIMIT`]: more
/// is a flood, whatever follows, and a bot that floods while it is given
/// time to exit cannot fill the referee's memory.
fn keep(pending: &mut Vec<u8>, bytes: &[u8]) {
    let room = (LINE_LIMIT + 1).saturating_sub(pending.len());
    pending.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

/// The referee's forfeit for a bot's `fault` on the turn `ask`.
#[must_use]
pub fn forfeit(fault: Fault, ask: &Ask<'_>) -> Forfeit {
    match fault {
        Fault::FailedToStart(reason) => Forfeit::FailedToStart(reason),
        Fault::NoOutput(reason) => Forfeit::NoOutput(reason),
        Fault::Garbage(reason) => Forfeit::Garbage(reason),
        Fault::Illegal(column) => Forfeit::Illegal(IllegalMove::FullColumn(column)),
        Fault::OutOfTime => ask.out_of_time(),
    }
}

/// The protocols of bots on standard input and output, as the referee names
/// them: each makes its host's state machine.
pub trait Protocol {
    /// The host's state machine of this protocol.
    type Host: PipeHost;

    /// The host of a bot that has `startup` to get ready when the game
    /// starts.
    fn host(&self, startup: Duration) -> Self::Host;
}

/// A bot on standard input and output, its protocol's host `H` saying what
/// to send and what its answers mean.
pub struct Bot<H> {
    host: H,
    conversation: Conversation,
    /// How long it has for the greeting.
    startup: Duration,
    greeted: bool,
    captures: Captures,
}

/// How long a bot has to exit by itself after the game's last message
/// before it is killed (the moderator expects bots to exit, without penalty
/// if they do not).
pub const GOODBYE_GRACE: Duration = Duration::from_millis(500);

impl<H: PipeHost> Bot<H> {
    /// A bot of `protocol` in `conversation`, with `startup` to get ready.
    #[must_use]
    pub fn new(
        protocol: impl Protocol<Host = H>,
        conversation: Conversation,
        startup: Duration,
        captures: Captures,
    ) -> Bot<H> {
        Bot { host: protocol.host(startup), conversation, startup, greeted: false, captures }
    }

    /// The host's state machine, for a player that tells it more than a
    /// turn's [`Situation`] holds (a ConnectX agent's overage time).
    pub fn host_mut(&mut self) -> &mut H {
        &mut self.host
    }
}

impl<H: PipeHost> Competitor for Bot<H> {
    /// Greets the bot first if it has not been, then carries out the
    /// turn's steps until one ends in a move or a forfeit.
    fn play(&mut self, ask: &Ask<'_>, _: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        if let Some(reason) = self.conversation.failed() {
            return Ok(Turn::lost(Forfeit::FailedToStart(reason.to_string())));
        }
        let position = Situation { board: ask.board, history: ask.history, left: ask.left };
        let mut started = Instant::now();
        let (mut step, mut deadline) = if self.greeted {
            (self.host.turn(&position), started + ask.time)
        } else {
            (self.host.greet(), started + self.startup)
        };
        let result = loop {
            if let Some(how) = step.send.iter().find_map(|line| self.conversation.send(line).err()) {
                break Err(forfeit(self.host.refused(how.to_string()), ask));
            }
            step = match step.then {
                Then::Listen => match self.conversation.answer(deadline, H::take) {
                    Ok(answer) => {
                        self.conversation.heard(&answer);
                        self.host.heard(&answer)
                    }
                    Err(NoAnswer::Silence(silence)) => Step::fault(self.host.silent(silence)),
                    Err(NoAnswer::Limit(forfeit)) => break Err(forfeit),
                },
                Then::Look => {
                    let unasked = self.conversation.unasked();
                    self.host.looked(unasked.as_deref())
                }
                // The turn's time starts once the bot is ready.
                Then::Ready => {
                    self.greeted = true;
                    started = Instant::now();
                    deadline = started + ask.time;
                    self.host.turn(&position)
                }
                Then::Move(column) => break Ok(column),
                Then::Fault(fault) => break Err(forfeit(fault, ask)),
            };
        };
        let result = result.map_err(|forfeit| self.conversation.with_last_words(forfeit));
        // A bot that failed to get ready lost before its turn started.
        let wall = if self.greeted { started.elapsed() } else { Duration::ZERO };
        Ok(Turn { result, wall, cpu: None, ending: None })
    }

    fn finish(&mut self, end: End) -> Result<(), Error> {
        let mut grace = None;
        if !end.forfeited && self.greeted && self.conversation.send(&self.host.goodbye(end.outcome)).is_ok() {
            grace = Some(Instant::now() + GOODBYE_GRACE);
        }
        self.conversation.finish(grace, &mut self.captures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unread_output_is_kept_to_just_over_a_line() {
        let mut pending = b"bestmove".to_vec();
        keep(&mut pending, &vec![b'4'; LINE_LIMIT]);
        keep(&mut pending, b"more");
        assert_eq!(pending.len(), LINE_LIMIT + 1, "one byte past the limit tells a flood");
        assert!(pending.starts_with(b"bestmove4"));
    }
}
