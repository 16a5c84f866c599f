//! One refereed game: players take turns until the game ends under its
//! rules (the board is full, or under classic rules a four is made) or one of
//! them forfeits, and every turn is timed and recorded.
//!
//! A program's turn: the board goes into a new file, under a fresh random
//! name, in the player's own folder, the program runs there, contained, with
//! the time limit, what it printed is kept in the game's output directory,
//! and the file it wrote, if it is a regular file, is judged by
//! [`verdict::judge`]. Whatever a player leaves in its folder can cost it
//! the game, never stop the referee. A person's turn is asked at the terminal as
//! in interactive mode, which never accepts an illegal column.

use std::fs::File;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::log::{encode_board, Colour, ForfeitRecord, GameRecord, Outcome, Scores, Side, TurnRecord};
use super::player::{PlayerSpec, Substitution, Template};
use super::process::{self, Captured, Containment, Ending, Run};
use super::scratch::ScratchDir;
use super::verdict::{self, Forfeit};
use super::Error;
use crate::board::{Board, Column, Player};
use crate::display;
use crate::format::{self, LineEnding};
use crate::rules::{self, Rules};

/// The most of each output stream kept per turn; the end is kept, since
/// that is where a crash is explained.
pub const CAPTURE_LIMIT: usize = 8 * 1024;

/// The most of an output file read: a board file is under 100 bytes.
const OUTPUT_LIMIT: u64 = 64 * 1024;

/// A player and how it is shown and logged.
#[derive(Clone, Debug)]
pub struct Seat {
    pub side: Side,
    pub spec: PlayerSpec,
}

impl Seat {
    /// A seat for `command` (`self`, `human` or a template) shown as `name`.
    ///
    /// # Errors
    /// When `command` is a template that cannot be used.
    pub fn new(name: &str, command: &str) -> Result<Seat, Error> {
        let spec = PlayerSpec::parse(command)?;
        Ok(Seat { side: Side { name: name.to_owned(), command: command.trim().to_owned() }, spec })
    }
}

/// The rules of a game and what every program in it is given.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The game played: when it ends and who wins.
    pub rules: Rules,
    /// Substituted for `{depth}`, and the depth `self` searches.
    pub depth: u32,
    /// Per move, for programs; people have all the time they want. `self`
    /// stops searching at half of it, so that it never loses on time.
    pub timeout: Duration,
}

/// The terminal, for people who play and for showing the game.
pub struct Console<'a> {
    pub input: &'a mut dyn BufRead,
    pub output: &'a mut dyn Write,
    /// Print the board after every move, not only to a person about to move.
    pub show_moves: bool,
}

/// Everything a game needs to be played.
pub struct Game<'a> {
    /// The game's name in the log and the name of its output directory.
    pub id: String,
    /// Red (player 1) first.
    pub seats: &'a [Seat; 2],
    pub start: Board,
    pub opening: Option<String>,
    pub settings: Settings,
    /// Where the captured output of the programs goes: one file per colour.
    pub output_directory: PathBuf,
    /// How programs are run; none when both players are people.
    pub containment: Option<&'a Containment>,
}

/// A side's command, ready to run, and its working directory.
struct Program {
    template: Template,
    /// Whether this is `self`, whose failure to start is the referee's.
    engine: bool,
    directory: ScratchDir,
    captured: Option<File>,
}

/// How a turn went: a column, or a forfeit, and how long it took.
struct Turn {
    result: Result<Column, Forfeit>,
    wall: Duration,
    cpu: Option<Duration>,
    ending: Option<String>,
}

impl Game<'_> {
    /// Plays the game to its end and returns its record.
    ///
    /// # Errors
    /// When the referee cannot do its own part: create directories or
    /// files, find its own executable for `self`, or use the terminal. A
    /// player's failure is a forfeit in the record, not an error.
    pub fn play(&self, mut console: Option<&mut Console<'_>>) -> Result<GameRecord, Error> {
        let mut programs = [self.program(Colour::Red)?, self.program(Colour::Green)?];
        let base = std::env::current_dir().map_err(|source| Error::io("find", Path::new("."), source))?;
        let mut board = self.start;
        let mut record = self.empty_record();
        if let Some(console) = console.as_deref_mut().filter(|console| console.show_moves) {
            for colour in Colour::BOTH {
                writeln!(
                    console.output,
                    "{} (player {}): {}",
                    capitalised(colour.name()),
                    colour.player().number(),
                    self.side(colour).name
                )
                .map_err(Error::terminal)?;
            }
            write!(console.output, "\n{}", display::board_and_score(&board)).map_err(Error::terminal)?;
        }
        while !self.settings.rules.is_over(&board) {
            let colour = Colour::of(board.to_move());
            let ply = record.turns.len() + 1;
            let turn = match &mut programs[colour.index()] {
                Some(program) => self.program_turn(program, colour, &board, ply, &base)?,
                None => human_turn(&board, console.as_deref_mut())?,
            };
            record.turns.push(TurnRecord {
                player: colour,
                column: turn.result.as_ref().ok().map(|column| column.number()),
                wall: seconds(turn.wall),
                cpu: turn.cpu.map(seconds),
                ending: turn.ending,
            });
            match turn.result {
                Ok(column) => {
                    board.play(column);
                    record.moves.push_str(&column.to_string());
                    if let Some(console) = console.as_deref_mut().filter(|console| console.show_moves) {
                        let side = self.side(colour);
                        let time = turn.cpu.map_or(String::new(), |cpu| {
                            format!(" in {:.3} s ({:.3} s CPU)", turn.wall.as_secs_f64(), cpu.as_secs_f64())
                        });
                        write!(
                            console.output,
                            "\nMove {ply}: {} ({}) plays column {column}{time}.\n{}",
                            colour.name(),
                            side.name,
                            display::board_and_score(&board)
                        )
                        .map_err(Error::terminal)?;
                    }
                }
                Err(forfeit) => {
                    record.forfeit = Some(ForfeitRecord {
                        player: colour,
                        verdict: forfeit.kind().to_owned(),
                        reason: forfeit.to_string(),
                    });
                    break;
                }
            }
        }
        record.score = Scores { red: board.score(Player::One), green: board.score(Player::Two) };
        record.result = match &record.forfeit {
            Some(forfeit) => Outcome::win_for(forfeit.player.other()),
            None => match self.settings.rules.outcome(&board) {
                Some(rules::Outcome::Win(winner)) => Outcome::win_for(Colour::of(winner)),
                _ => Outcome::Draw,
            },
        };
        Ok(record)
    }

    fn side(&self, colour: Colour) -> &Side {
        &self.seats[colour.index()].side
    }

    /// The record before the first move.
    fn empty_record(&self) -> GameRecord {
        GameRecord {
            id: self.id.clone(),
            red: self.side(Colour::Red).clone(),
            green: self.side(Colour::Green).clone(),
            rules: self.settings.rules,
            depth: self.settings.depth,
            timeout: self.settings.timeout.as_secs_f64(),
            start: encode_board(&self.start),
            opening: self.opening.clone(),
            moves: String::new(),
            score: Scores { red: 0, green: 0 },
            result: Outcome::Draw,
            forfeit: None,
            turns: Vec::new(),
        }
    }

    /// The program playing `colour`, none for a person.
    fn program(&self, colour: Colour) -> Result<Option<Program>, Error> {
        let spec = &self.seats[colour.index()].spec;
        if *spec == PlayerSpec::Human {
            return Ok(None);
        }
        let containment = self.containment.ok_or(process::ContainError::Unsupported)?;
        let template = match spec {
            PlayerSpec::Human => return Ok(None),
            PlayerSpec::Engine => {
                let executable = containment.own_executable().ok_or_else(|| {
                    Error::OwnExecutable("the referee was started without a copy of its executable".to_owned())
                })?;
                Template::engine(executable, self.settings.rules, self.settings.timeout / 2)
            }
            PlayerSpec::Command(template) => template.clone(),
        };
        let directory = containment
            .player_dir(&format!("{}-", colour.name()))
            .map_err(|source| Error::io("create a player's folder in", &std::env::temp_dir(), source))?;
        Ok(Some(Program { template, engine: *spec == PlayerSpec::Engine, directory, captured: None }))
    }

    /// Runs `program` on `board` and judges what it wrote.
    fn program_turn(
        &self,
        program: &mut Program,
        colour: Colour,
        board: &Board,
        ply: usize,
        base: &Path,
    ) -> Result<Turn, Error> {
        let directory = &program.directory;
        let board_file = format::write(board, LineEnding::Lf);
        let names = directory
            .create(&format!("in-{ply:02}"), board_file.as_bytes())
            .and_then(|input| Ok((directory.unused_name(&format!("out-{ply:02}"))?, input)));
        let (output, input) = match names {
            Ok(names) => names,
            Err(error) => {
                // The player's folder is the player's: if it cannot take
                // the board, the player cannot play.
                let reason = format!("the board cannot be put in the player's folder: {error}");
                return Ok(Turn {
                    result: Err(Forfeit::FailedToStart(reason)),
                    wall: Duration::ZERO,
                    cpu: None,
                    ending: None,
                });
            }
        };
        let (input_path, output_path) = (directory.path().join(&input), directory.path().join(&output));
        let values = Substitution { input: &input_path, output: &output_path, depth: self.settings.depth };
        let (executable, args) = program.template.command_line(&values, base);
        let containment = self.containment.expect("programs are run only with a containment");
        let run = containment.run(&executable, &args, directory, self.settings.timeout, CAPTURE_LIMIT);
        self.keep_output(program, colour, ply, &executable, &args, &run)?;

        let ending = describe(&run.ending);
        let result = match &run.ending {
            Ending::FailedToStart(reason) if program.engine => return Err(Error::OwnExecutable(reason.clone())),
            Ending::FailedToStart(reason) => Err(Forfeit::FailedToStart(reason.clone())),
            Ending::TimedOut => Err(Forfeit::Timeout(self.settings.timeout)),
            Ending::Exited(_) | Ending::Signalled(_) => match program.directory.read(&output, OUTPUT_LIMIT) {
                Ok(Some(text)) => verdict::judge(board, &text),
                Ok(None) => Err(Forfeit::NoOutput(format!(
                    "the program wrote no output file ({ending}); its output is in {}",
                    self.output_directory.join(format!("{}.txt", colour.name())).display()
                ))),
                Err(error) => Err(Forfeit::NoOutput(format!("the output file cannot be read: {error}"))),
            },
        };
        program.directory.remove(&input);
        program.directory.remove(&output);
        Ok(Turn { result, wall: run.wall, cpu: Some(run.cpu), ending: Some(ending) })
    }

    /// Appends what the program printed on this turn to the colour's file
    /// in the game's output directory.
    fn keep_output(
        &self,
        program: &mut Program,
        colour: Colour,
        ply: usize,
        executable: &Path,
        args: &[std::ffi::OsString],
        run: &Run,
    ) -> Result<(), Error> {
        let path = self.output_directory.join(format!("{}.txt", colour.name()));
        let error = |source| Error::io("write", &path, source);
        if program.captured.is_none() {
            std::fs::create_dir_all(&self.output_directory).map_err(error)?;
            program.captured = Some(File::create(&path).map_err(error)?);
        }
        let file = program.captured.as_mut().expect("opened above");
        let words = std::iter::once(executable.as_os_str()).chain(args.iter().map(|arg| arg.as_os_str()));
        let command = shell_words::join(words.map(|word| word.to_string_lossy().into_owned()));
        let mut text = format!(
            "=== move {ply}: {command}\n=== {}, {:.3} s, {:.3} s CPU\n",
            describe(&run.ending),
            run.wall.as_secs_f64(),
            run.cpu.as_secs_f64()
        )
        .into_bytes();
        for (name, captured) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            text.extend(section(name, captured));
        }
        file.write_all(&text).map_err(error)
    }
}

/// A person's turn at the terminal; quitting or ending the input forfeits.
fn human_turn(board: &Board, console: Option<&mut Console<'_>>) -> Result<Turn, Error> {
    let console = console.ok_or(Error::NoTerminal)?;
    if !console.show_moves {
        write!(console.output, "\n{}", display::board_and_score(board)).map_err(Error::terminal)?;
    }
    let started = Instant::now();
    let answer = crate::modes::ask_column(board, console.input, console.output)
        .map_err(|error| Error::Terminal(format!("{error:#}")))?;
    Ok(Turn { result: answer.ok_or(Forfeit::Quit), wall: started.elapsed(), cpu: None, ending: None })
}

/// One captured stream in the output file.
fn section(name: &str, captured: &Captured) -> Vec<u8> {
    let mut text = if captured.dropped > 0 {
        format!("--- {name} (the first {} bytes were dropped)\n", captured.dropped).into_bytes()
    } else {
        format!("--- {name}\n").into_bytes()
    };
    text.extend_from_slice(&captured.tail);
    if !captured.tail.is_empty() && !captured.tail.ends_with(b"\n") {
        text.push(b'\n');
    }
    text
}

/// How a program ended, in words.
fn describe(ending: &Ending) -> String {
    match ending {
        Ending::Exited(code) => format!("exit status {code}"),
        Ending::Signalled(signal) => format!("killed by signal {signal}"),
        Ending::TimedOut => "timed out and killed".to_owned(),
        Ending::FailedToStart(reason) => format!("failed to start: {reason}"),
    }
}

/// The end of a game in words: the result with the score, the winner and
/// why, and the time each side used. `board` is the last position.
#[must_use]
pub fn summary(record: &GameRecord, board: &Board) -> String {
    let named = |colour: Colour| {
        format!("{} (player {}, {})", colour.name(), colour.player().number(), record.side(colour).name)
    };
    let mut text = String::new();
    if let Some(forfeit) = &record.forfeit {
        text.push_str(&format!("{} forfeits: {}\n", capitalised(&named(forfeit.player)), forfeit.reason));
        text.push_str(&format!("When the game stopped: {}\n", display::score_line(board)));
    } else {
        // The sentence gives the score: the board shown last has it too.
        text.push_str(&format!("{}\n", display::result_sentence(record.rules, board)));
    }
    match record.result.winner() {
        Some(winner) => text.push_str(&format!("Winner: {}.\n", named(winner))),
        None => text.push_str("No winner.\n"),
    }
    for colour in Colour::BOTH {
        let turns: Vec<&TurnRecord> = record.turns.iter().filter(|turn| turn.player == colour).collect();
        if turns.is_empty() {
            continue;
        }
        let wall: f64 = turns.iter().map(|turn| turn.wall).sum();
        let cpu = turns.iter().map(|turn| turn.cpu).sum::<Option<f64>>();
        let cpu = cpu.map_or(String::new(), |cpu| format!(", {cpu:.3} s CPU"));
        let count = match turns.len() {
            1 => "1 turn".to_owned(),
            many => format!("{many} turns"),
        };
        text.push_str(&format!("Time used by {}: {wall:.3} s{cpu} over {count}.\n", colour.name()));
    }
    text
}

/// Seconds to the microsecond, as logged.
fn seconds(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1e6).round() / 1e6
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars).collect())
}
