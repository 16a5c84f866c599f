//! The positions the threads of a search are in the middle of, so that a
//! thread reaching one of them searches its other moves first and comes
//! back to it later, when the table likely holds its value: the threads
//! then split a position's moves between them instead of all searching the
//! same one at once (the "exclusive" rule of ABDADA, Weill 1996, kept only
//! as a hint: a position missing here, or one mistaken for another, only
//! changes the order of the moves, never a value).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots in the list. Only positions [`MIN_DEPTH`] or more from the horizon
/// are listed, a few dozen at a time per thread, so collisions are rare.
const SLOTS: usize = 1 << 12;

/// Positions nearer the horizon than this are neither listed nor put off:
/// their searches are too short to be worth splitting.
pub const MIN_DEPTH: u32 = 6;

/// Keys of positions being searched, each in a slot chosen by its key.
pub struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    pub fn new() -> Busy {
        Busy { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        // The key's high bits: the table indexes by scrambled keys, and these
        // spread as well.
        &self.slots[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize % SLOTS]
    }

    /// Whether some thread is searching the position with `key`.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Relaxed) == key
    }

    /// Lists the position with `key` as being searched, if its slot is free;
    /// returns whether it did (then [`leave`](Busy::leave) it after).
    #[inline]
    pub fn enter(&self, key: u64) -> bool {
        key != 0 && self.slot(key).compare_exchange(0, key, Relaxed, Relaxed).is_ok()
    }

    /// The search of the position with `key`, listed by [`enter`](Busy::enter), is over.
    #[inline]
    pub fn leave(&self, key: u64) {
        self.slot(key).store(0, Relaxed);
    }

    /// Empties the list, for a new search (a stopped thread leaves its
    /// positions listed).
    pub fn clear(&self) {
        self.slots.iter().for_each(|slot| slot.store(0, Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_listed_from_enter_to_leave() {
        let busy = Busy::new();
        let key = 0x1234_5678_9ABC;
        assert!(!busy.contains(key));
        assert!(busy.enter(key));
        assert!(busy.contains(key));
        // A second thread reaching it finds it taken.
        assert!(!busy.enter(key));
        busy.leave(key);
        assert!(!busy.contains(key));
        assert!(busy.enter(key));
        busy.clear();
        assert!(!busy.contains(key));
    }
}
