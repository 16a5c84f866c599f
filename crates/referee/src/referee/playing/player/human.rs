//! A person at the terminal, asked for a column as in interactive mode,
//! which never accepts an illegal one; quitting or ending the input
//! forfeits. A person has all the time they want.

use std::time::Instant;

use super::{Ask, Competitor, End, Turn};
use crate::protocol::verdict::Forfeit;
use crate::referee::Error;
use crate::referee::console::Console;
use maxconnect4_game::display;

/// `human`.
pub struct Human;

impl Competitor for Human {
    fn play(&mut self, ask: &Ask<'_>, console: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        let console = console.ok_or(Error::NoTerminal)?;
        if !console.show_moves {
            write!(console.output, "\n{}", display::board_and_score(ask.board)).map_err(Error::terminal)?;
        }
        let started = Instant::now();
        let answer =
            maxconnect4_io::prompt::ask_column(ask.board, console.input, console.output).map_err(Error::Terminal)?;
        Ok(Turn { result: answer.ok_or(Forfeit::Quit), wall: started.elapsed(), cpu: None, ending: None })
    }

    fn finish(&mut self, _: End) -> Result<(), Error> {
        Ok(())
    }

    fn is_timed(&self) -> bool {
        false
    }
}
