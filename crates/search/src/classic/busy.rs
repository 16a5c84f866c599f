//! Which positions the threads of a classic solve are searching now, so
//! that a thread can search something else first (ABDADA): a small shared
//! table of keys, each slot one atomic word.

use std::sync::atomic::{AtomicU64, Ordering};

/// The positions the threads of a search are in, by key: a small table in
/// which a thread marks a child before it searches it, so that another
/// thread can search something else first (see `Solver::negamax`).
/// A slot holds one key; two positions in one slot only cost a deferral.
pub(super) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    const SLOTS: usize = 1 << 12;

    #[inline]
    pub(super) fn new() -> Busy {
        Busy { slots: (0..Self::SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize]
    }

    #[inline]
    pub(super) fn holds(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    #[inline]
    pub(super) fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    #[inline]
    pub(super) fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}
