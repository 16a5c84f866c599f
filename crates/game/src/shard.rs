//! A part of an ordered list of independent jobs, so that several machines
//! (GNU parallel, a Slurm job array) share the work with nothing to agree
//! on but the list: `--shard I/N` takes the items whose place in the list,
//! counted from 0, is I modulo N. Interleaved rather than in blocks, so that
//! every shard gets a mix: of players and openings in a tournament
//! (`referee::fixtures`), of easy and hard families of positions in an
//! opening book's build (`modes::book::build`).

use std::fmt;
use std::str::FromStr;

/// Part `index` of `count` (`--shard I/N`, counting from 0 as a Slurm job
/// array does): the items whose place in the list, counted from 0, is
/// `index` modulo `count`.
/// Made only by parsing `I/N`, so that `0 <= index < count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Whether the item at `place` (counted from 0) of the list is in this shard.
    #[must_use]
    pub const fn holds(self, place: usize) -> bool {
        place % self.count == self.index
    }

    /// I, this shard's number, from 0.
    #[must_use]
    pub const fn index(self) -> usize {
        self.index
    }

    /// N, the number of shards.
    #[must_use]
    pub const fn count(self) -> usize {
        self.count
    }

    /// The shard of `count` that holds the item at `place`.
    ///
    /// # Panics
    /// When `count` is 0.
    #[must_use]
    pub const fn of_place(place: usize, count: usize) -> Shard {
        Shard { index: place % count, count }
    }
}

/// Why a text is not a shard `I/N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// No `/` between the index and the count.
    #[error("expected I/N, such as 3/100")]
    NoSlash,
    /// The index or the count, given, is not a whole number.
    #[error("expected I/N, such as 3/100: '{0}' is not a whole number")]
    NotANumber(String),
    /// The count is 0.
    #[error("there must be at least one shard (N is 1 or more)")]
    NoShards,
    /// I is not below N; N is given.
    #[error("shards count from 0, so I is at most N - 1 ({})", .0 - 1)]
    PastTheLast(usize),
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/N`, with `0 <= I < N`.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let (index, count) = text.split_once('/').ok_or(ShardError::NoSlash)?;
        let number = |part: &str| part.trim().parse::<usize>().map_err(|_| ShardError::NotANumber(part.to_owned()));
        let (index, count) = (number(index)?, number(count)?);
        if count == 0 {
            return Err(ShardError::NoShards);
        }
        if index >= count {
            return Err(ShardError::PastTheLast(count));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_i_of_n_counting_from_0() {
        assert_eq!("3/100".parse(), Ok(Shard { index: 3, count: 100 }));
        assert_eq!("0/1".parse::<Shard>().map(|shard| shard.to_string()), Ok("0/1".to_owned()));
        assert_eq!("3/3".parse::<Shard>(), Err(ShardError::PastTheLast(3)));
        assert_eq!(ShardError::PastTheLast(3).to_string(), "shards count from 0, so I is at most N - 1 (2)");
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::NoShards));
        assert_eq!("3".parse::<Shard>(), Err(ShardError::NoSlash));
        assert_eq!("a/3".parse::<Shard>(), Err(ShardError::NotANumber("a".to_owned())));
        assert!("-1/3".parse::<Shard>().is_err());
    }

    #[test]
    fn a_shard_holds_every_nth_place() {
        let shard: Shard = "2/5".parse().unwrap();
        let places: Vec<usize> = (0..20).filter(|&place| shard.holds(place)).collect();
        assert_eq!(places, [2, 7, 12, 17]);
        assert_eq!(Shard::of_place(17, 5), shard);
        assert_eq!((shard.index(), shard.count()), (2, 5));
    }
}
