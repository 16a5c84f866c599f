//! A web arena bot (seed 004), hosted: the referee POSTs `init` once per
//! game and a `play-turn` per move (the board with row 0 at the bottom, `X`
//! the first player, `O` the second) to the bot's URL, and reads
//! `{"play":N}`, N a column 0-6. [`Host`] says what to send and what the
//! answers mean; this only POSTs.
//!
//! Each request has the turn's time for connecting, sending and reading the
//! whole answer, and an answer is read up to [`ANSWER_LIMIT`]; a refused
//! connection, a timeout, a status other than 2xx, a body that is not JSON
//! or a `play` that is not a playable column forfeits. Plain HTTP only: the
//! referee has no TLS. A play-turn also names the `rules`, which the
//! arena's bots ignore and `serve` honours.

use std::time::{Duration, Instant};

use super::pipe::forfeit;
use super::{Ask, Competitor, End, Turn};
use crate::protocol::arena::{ANSWER_LIMIT, Delivery, Host};
use crate::referee::Error;
use crate::referee::console::Console;
use crate::referee::settings::Settings;
use maxconnect4_contain::Captured;
use maxconnect4_contain::captures::Captures;
use maxconnect4_game::player::Player;

/// `http:URL`.
pub struct Http {
    url: String,
    agent: ureq::Agent,
    /// What to send and what the answers mean.
    host: Host,
    /// Each request and answer, for the game's output directory.
    exchange: Captured,
    captures: Captures,
}

impl Http {
    /// The bot at `url` playing `colour` in game `game_id`, its exchanges
    /// kept in `captures`.
    #[must_use]
    pub fn new(url: &str, game_id: &str, colour: Player, settings: Settings, captures: Captures) -> Http {
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
        let startup = super::STARTUP.max(settings.timeout);
        Http {
            url: url.to_owned(),
            agent,
            host: Host::new(url, game_id, colour, settings.rules, startup),
            exchange: Captured::default(),
            captures,
        }
    }

    /// POSTs `body` and reads the status and the answer within `time`.
    fn post(&mut self, body: &str, time: Duration) -> Delivery {
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
        match answer {
            Ok((status, body)) => Delivery::Answered { status, body },
            Err(ureq::Error::Timeout(_)) => Delivery::TimedOut,
            Err(ureq::Error::BodyExceedsLimit(_)) => Delivery::TooLarge,
            Err(other) => Delivery::Unreachable(other.to_string()),
        }
    }
}

impl Competitor for Http {
    fn play(&mut self, ask: &Ask<'_>, _: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        if let Some((init, startup)) = self.host.init() {
            let delivery = self.post(&init.to_string(), startup);
            if let Err(fault) = self.host.initialised(delivery) {
                return Ok(Turn::lost(forfeit(fault, ask)));
            }
        }
        let started = Instant::now();
        let request = self.host.turn(ask.board).to_string();
        let delivery = self.post(&request, ask.time);
        let result = self.host.answered(delivery).map_err(|fault| forfeit(fault, ask));
        Ok(Turn { result, wall: started.elapsed(), cpu: None, ending: None })
    }
    fn finish(&mut self, _: End) -> Result<(), Error> {
        if self.exchange.tail.is_empty() {
            return Ok(());
        }
        let mut text = format!("=== {}\n", self.url).into_bytes();
        text.extend(maxconnect4_contain::turn::section("exchange", &self.exchange));
        Ok(self.captures.append(&text)?)
    }
}
