//! A bot that talks on its standard input and output for a whole game (a
//! moderator bot, a coordinator engine): started once, contained like a
//! one-move program, and read against deadlines.
//!
//! Its output is read with [`Contained::poll`] in the referee's thread, so
//! nothing it does can block the referee past a turn's deadline: a bot that
//! floods (more than [`LINE_LIMIT`] bytes without an answer), closes its
//! standard output, exits or hangs gets a [`Silence`] the caller turns into
//! a forfeit. What was said each way and the end of its stderr are kept for
//! the game's output directory.

use std::fmt::Display;
use std::io::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use super::program::{describe, section, shown, CAPTURE_LIMIT};
use super::{Captures, Substitution, Template};
use crate::referee::process::{Captured, Contained, Containment, Progress, Stream};
use crate::referee::scratch::ScratchDir;
use crate::referee::Error;

/// The most a bot may print without completing an answer: answers are a few
/// bytes, so this only stops a bot that floods the referee.
pub const LINE_LIMIT: usize = 64 * 1024;

/// How long a bot whose standard output closed has to end by itself, so
/// that its exit status can be told: exiting takes milliseconds.
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// Why no answer came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// The deadline passed.
    Deadline,
    /// The bot ended, or closed its standard output; in words.
    Gone(String),
    /// It printed more than [`LINE_LIMIT`] bytes without an answer.
    Flood,
}

/// A running bot, or why it could not be started.
pub struct Conversation {
    /// Stopped (dropped) before the folder it runs in is removed.
    process: Result<Contained, String>,
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
        let (program, args) = template.command_line(&Substitution { input: None, output: None, depth }, base);
        let words = std::iter::once(program.as_os_str()).chain(args.iter().map(|arg| arg.as_os_str()));
        let command = shell_words::join(words.map(|word| word.to_string_lossy().into_owned()));
        let process = containment.spawn(&program, &args, &directory, true);
        Conversation {
            process,
            _directory: directory,
            command,
            pending: Vec::new(),
            exchange: Captured::default(),
            stderr: Captured::default(),
        }
    }

    /// Why the bot could not be started, if it could not.
    #[must_use]
    pub fn failed(&self) -> Option<&str> {
        self.process.as_ref().err().map(String::as_str)
    }

    /// Sends one line.
    ///
    /// # Errors
    /// When the bot no longer reads its standard input (it ended, or closed it).
    pub fn send(&mut self, message: &dyn Display) -> Result<(), Silence> {
        let line = format!("{message}\n");
        self.exchange.push(format!("> {line}").as_bytes(), CAPTURE_LIMIT);
        let process = self.process.as_mut().map_err(|reason| Silence::Gone(reason.clone()))?;
        // Messages are a few bytes and a game sends a few kilobytes at most,
        // well under a pipe's buffer, so this never waits on the bot.
        let written = process.stdin.as_mut().map(|stdin| stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()));
        match written {
            Some(Ok(())) => Ok(()),
            _ => Err(Silence::Gone("it no longer reads its standard input".to_owned())),
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
        mut take: impl FnMut(&mut Vec<u8>, bool) -> Option<T>,
    ) -> Result<T, Silence> {
        loop {
            let open = self.process.as_ref().is_ok_and(|process| process.is_open(Stream::Stdout));
            if let Some(answer) = take(&mut self.pending, !open) {
                return Ok(answer);
            }
            if self.pending.len() > LINE_LIMIT {
                return Err(Silence::Flood);
            }
            if !open {
                return Err(Silence::Gone(self.how_it_went(deadline)));
            }
            match self.poll(deadline) {
                Progress::Output => {}
                Progress::Ended => return Err(Silence::Gone(self.how_it_went(deadline))),
                Progress::Deadline => return Err(Silence::Deadline),
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
    fn poll(&mut self, deadline: Instant) -> Progress {
        let Ok(process) = &mut self.process else { return Progress::Ended };
        let (pending, stderr) = (&mut self.pending, &mut self.stderr);
        process.poll(Some(deadline), &mut |stream, bytes| match stream {
            Stream::Stdout => pending.extend_from_slice(bytes),
            Stream::Stderr => stderr.push(bytes, CAPTURE_LIMIT),
        })
    }

    /// The bot's standard output has closed: waits a moment for it to end,
    /// and says how it went.
    fn how_it_went(&mut self, deadline: Instant) -> String {
        let grace = deadline.min(Instant::now() + EXIT_GRACE);
        loop {
            match self.poll(grace) {
                Progress::Output => {}
                Progress::Ended => {
                    let process = std::mem::replace(&mut self.process, Err("it has ended".to_owned()));
                    return match process {
                        Ok(process) => {
                            let ending = describe(&self.stop(process).ending);
                            self.process = Err(format!("it ended ({ending})"));
                            format!("it ended ({ending})")
                        }
                        Err(reason) => reason,
                    };
                }
                Progress::Deadline => return "it closed its standard output".to_owned(),
            }
        }
    }

    /// Stops the process and notes how it ended.
    fn stop(&mut self, process: Contained) -> crate::referee::process::Stopped {
        let (pending, stderr) = (&mut self.pending, &mut self.stderr);
        let stopped = process.stop(&mut |stream, bytes| match stream {
            Stream::Stdout => pending.extend_from_slice(bytes),
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
            while self.process.is_ok() && self.poll(grace) == Progress::Output {}
        }
        if let Ok(process) = std::mem::replace(&mut self.process, Err("it has been stopped".to_owned())) {
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
        captures.append(&text)
    }
}

/// The forfeit of a bot that gave no answer on its turn.
#[must_use]
pub fn forfeit(silence: Silence, ask: &super::Ask<'_>) -> crate::referee::verdict::Forfeit {
    use crate::referee::verdict::Forfeit;
    match silence {
        Silence::Deadline => ask.out_of_time(),
        Silence::Gone(how) => Forfeit::NoOutput(format!("{how} without answering")),
        Silence::Flood => Forfeit::Garbage(format!("it printed more than {} KiB without an answer", LINE_LIMIT / 1024)),
    }
}

/// Takes the next line that is not blank from `pending`, without its line
/// break; the last line need not end with one when no more will come.
pub fn next_line(pending: &mut Vec<u8>, closed: bool) -> Option<String> {
    loop {
        let line: Vec<u8> = match pending.iter().position(|&byte| byte == b'\n') {
            Some(end) => pending.drain(..=end).collect(),
            None if closed && !pending.is_empty() => std::mem::take(pending),
            None => return None,
        };
        let text = String::from_utf8_lossy(&line).trim().to_owned();
        if !text.is_empty() {
            return Some(text);
        }
    }
}
