//! A web arena bot (seed 004), hosted: the referee POSTs `init` once per
//! game and a `play-turn` per move (the board with row 0 at the bottom, `X`
//! the first player, `O` the second) to the bot's URL, and reads
//! `{"play":N}`, N a column 0-6, with [`protocol::arena`]'s messages.
//!
//! Each request has the turn's time for connecting, sending and reading the
//! whole answer, and an answer is read up to [`ANSWER_LIMIT`]; a refused
//! connection, a timeout, a status other than 2xx, a body that is not JSON
//! or a `play` that is not a playable column forfeits. Plain HTTP only: the
//! referee has no TLS. A play-turn also names the `rules`, which the arena's
//! bots ignore and `serve` honours.

use std::time::{Duration, Instant};

use super::pipe::shortened;
use super::{Ask, Captures, Competitor, End, Turn};
use crate::protocol::arena::{self, PlayTurn, Request};
use crate::referee::console::Console;
use crate::referee::log::Colour;
use crate::referee::process::Captured;
use crate::referee::settings::Settings;
use crate::referee::verdict::{self, Forfeit};
use crate::referee::Error;

/// The most of an answer read: `{"play":3}` is ten bytes.
pub const ANSWER_LIMIT: u64 = 64 * 1024;

/// `http:URL`.
pub struct Http {
    url: String,
    agent: ureq::Agent,
    game_id: String,
    colour: Colour,
    settings: Settings,
    initialised: bool,
    /// Each request and answer, for the game's output directory.
    exchange: Captured,
    captures: Captures,
}

/// Why a request got no usable answer.
enum Failure {
    TimedOut,
    Unreachable(String),
    TooLarge,
}

impl Http {
    #[must_use]
    pub fn new(url: &str, game_id: &str, colour: Colour, settings: Settings, captures: Captures) -> Http {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            // The bot is the URL given, never a proxy between.
            .proxy(None)
            // A fresh connection per request: a connection kept from the
            // last turn may have been closed by the bot since, and a request
            // lost on it would cost the bot the game.
            .max_idle_connections(0)
            .max_idle_connections_per_host(0)
            .build()
            .new_agent();
        Http {
            url: url.to_owned(),
            agent,
            game_id: game_id.to_owned(),
            colour,
            settings,
            initialised: false,
            exchange: Captured::default(),
            captures,
        }
    }

    /// POSTs `body` and reads the status and the answer within `time`.
    fn post(&mut self, body: &str, time: Duration) -> Result<(u16, String), Failure> {
        self.exchange.push(format!("> POST {} {body}\n", self.url).as_bytes(), super::program::CAPTURE_LIMIT);
        let answer = self
            .agent
            .post(&self.url)
            .config()
            .timeout_global(Some(time))
            .build()
            .header("Content-Type", "application/json")
            .send(body)
            .and_then(|mut response| {
                let status = response.status().as_u16();
                let text = response.body_mut().with_config().limit(ANSWER_LIMIT).read_to_string()?;
                Ok((status, text))
            });
        let logged = match &answer {
            Ok((status, text)) => format!("< {status} {text}\n"),
            Err(error) => format!("< {error}\n"),
        };
        self.exchange.push(logged.as_bytes(), super::program::CAPTURE_LIMIT);
        answer.map_err(|error| match error {
            ureq::Error::Timeout(_) => Failure::TimedOut,
            ureq::Error::BodyExceedsLimit(_) => Failure::TooLarge,
            other => Failure::Unreachable(other.to_string()),
        })
    }

    fn turn(&mut self, ask: &Ask<'_>) -> Result<crate::board::Column, Forfeit> {
        let mut request = PlayTurn::new(ask.board, self.settings.rules);
        request.envelope.game_id = Some(serde_json::Value::String(self.game_id.clone()));
        let (status, body) =
            self.post(&Request::PlayTurn(request).to_string(), ask.time).map_err(|failure| match failure {
                Failure::TimedOut => ask.out_of_time(),
                Failure::Unreachable(reason) => Forfeit::NoOutput(format!("no answer from {}: {reason}", self.url)),
                Failure::TooLarge => Forfeit::Garbage(format!("the answer is over {} KiB", ANSWER_LIMIT / 1024)),
            })?;
        if !(200..300).contains(&status) {
            return Err(Forfeit::NoOutput(format!("{} answered HTTP {status} ('{}')", self.url, shortened(&body))));
        }
        let column = arena::parse_play(&body)
            .map_err(|error| Forfeit::Garbage(format!("{error} (the answer reads '{}')", shortened(&body))))?;
        verdict::judge_column(ask.board, column)
    }
}

impl Competitor for Http {
    fn play(&mut self, ask: &Ask<'_>, _: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        if !self.initialised {
            // The arena does not check the answer to `init` (a blank page
            // will do), but a bot it cannot reach cannot play.
            let init = Request::init(&self.game_id, self.colour.player()).to_string();
            let startup = super::STARTUP.max(self.settings.timeout);
            match self.post(&init, startup) {
                Ok(_) | Err(Failure::TooLarge) => self.initialised = true,
                Err(Failure::TimedOut) => {
                    let seconds = startup.as_secs_f64();
                    return Ok(Turn::lost(Forfeit::FailedToStart(format!("no answer to init within {seconds} s"))));
                }
                Err(Failure::Unreachable(reason)) => {
                    let reason = format!("no answer from {} to init: {reason}", self.url);
                    return Ok(Turn::lost(Forfeit::FailedToStart(reason)));
                }
            }
        }
        let started = Instant::now();
        let result = self.turn(ask);
        Ok(Turn { result, wall: started.elapsed(), cpu: None, ending: None })
    }

    fn finish(&mut self, _: End) -> Result<(), Error> {
        if self.exchange.tail.is_empty() {
            return Ok(());
        }
        let mut text = format!("=== {}\n", self.url).into_bytes();
        text.extend(super::program::section("exchange", &self.exchange));
        self.captures.append(&text)
    }
}
