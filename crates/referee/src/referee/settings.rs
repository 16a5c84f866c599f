//! The rules of a game and the limits every program in it plays under, as
//! the command line gave them, and as each game's record and a tournament's
//! manifest keep them.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use maxconnect4_game::rules::Rules;

/// The rules of a game and what every program in it is given.
///
/// Game records and manifests hold it flattened, so that its fields are
/// theirs: `"rules":"max","depth":5,"timeout":10.0`, then `clock` and
/// `adjudication` where there are some. Times are written as seconds, as
/// logs have always held them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The game played: when it ends and who wins. Logs written before
    /// games had rules were Max-Connect4.
    #[serde(default)]
    pub rules: Rules,
    /// Substituted for `{depth}`, and the depth `self` searches.
    pub depth: u32,
    /// Per move, for programs; people have all the time they want. `self`
    /// stops searching at half of it, so that it never loses on time.
    #[serde(with = "seconds")]
    pub timeout: Duration,
    /// Each side's total time for the game, beside the timeout per move.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "some_seconds")]
    pub clock: Option<Duration>,
    /// Under classic rules, the positions the solver may search to prove
    /// the result of each position reached, ending the game once it does
    /// (see [`adjudication`](super::adjudication)); none to play every game
    /// to its end. Manifests written before it had one name called it
    /// `adjudicate`, as the option is.
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "adjudicate")]
    pub adjudication: Option<u64>,
}

impl std::fmt::Display for Settings {
    /// The settings as the options that give them: `--rules max --depth 5
    /// --timeout 10`, with `--clock` and `--adjudicate` when they were given.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Settings { rules, depth, timeout, clock, adjudication } = self;
        write!(f, "--rules {rules} --depth {depth} --timeout {}", timeout.as_secs_f64())?;
        if let Some(clock) = clock {
            write!(f, " --clock {}", clock.as_secs_f64())?;
        }
        if let Some(budget) = adjudication {
            write!(f, " --adjudicate={budget}")?;
        }
        Ok(())
    }
}

/// A time as a number of seconds. A file may hold any number there; one
/// that is no time (negative, or too large) is an error of the file, never
/// a panic.
mod seconds {
    use std::time::Duration;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(time: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(time.as_secs_f64())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        let seconds = f64::deserialize(deserializer)?;
        Duration::try_from_secs_f64(seconds).map_err(|error| D::Error::custom(format!("{seconds} seconds: {error}")))
    }
}

/// A time that may be absent, as a number of seconds or nothing.
mod some_seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(time: &Option<Duration>, serializer: S) -> Result<S::Ok, S::Error> {
        match time {
            Some(time) => serializer.serialize_some(&time.as_secs_f64()),
            None => serializer.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Duration>, D::Error> {
        /// The seconds read by [`super::seconds`].
        #[derive(Deserialize)]
        struct Seconds(#[serde(with = "super::seconds")] Duration);
        Ok(Option::<Seconds>::deserialize(deserializer)?.map(|Seconds(time)| time))
    }
}
