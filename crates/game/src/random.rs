//! A small deterministic generator of pseudo-random numbers (Marsaglia's
//! xorshift64, shifts 13, 7, 17): the noise the classic solver's helper
//! threads add to their move order, and the seeded positions of tests, which
//! a failure can then name and repeat. Not for anything that must be
//! unpredictable.

use crate::board::Board;
use crate::rules::Rules;

/// The generator's state: the same seed gives the same numbers everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed`, which must not be 0 (0 only ever gives 0).
    #[must_use]
    pub const fn new(seed: u64) -> XorShift {
        XorShift(seed)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next number modulo `n` (a slight bias towards small numbers,
    /// immaterial for the small `n` of a board).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// The next number in [0, 1), from its 53 high bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Plays random legal moves on `board` until it has `empty` empty cells
    /// or the game is over under `rules`.
    pub fn play_until(&mut self, board: &mut Board, rules: Rules, empty: u32) {
        while board.empty_cells() > empty && !rules.is_over(board) {
            let legal: Vec<_> = board.legal_columns().collect();
            board.play(legal[self.below(legal.len() as u64) as usize]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64's first numbers from seed 1, worked out by hand.
    #[test]
    fn it_is_marsaglias_xorshift64() {
        let mut random = XorShift::new(1);
        assert_eq!([random.next_u64(), random.next_u64()], [1_082_269_761, 1_152_992_998_833_853_505]);
    }
}
