//! The transposition table: what earlier searches learned about positions,
//! so a position reached again by another move order is not searched again.
//!
//! One entry per slot, of one word; a new entry takes the slot unless the one
//! there was searched much deeper (see [`KEEP_DEEPER`]). The slot's index and
//! the part of the key an entry keeps together name one position, so a hit
//! is never a different position (as in Pascal Pons' solver, which keeps
//! part of the key and lets the index tell the rest). Eight entries to a
//! cache line: with 16-byte entries, `solve` at 28 empty cells took 1.08
//! times as long.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, PoisonError};

use maxconnect4_game::board::Column;
use maxconnect4_game::value::Value;

/// What a stored value says about the true value of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: Value,
    pub bound: Bound,
    /// Remaining depth searched, capped at the number of empty cells (so an
    /// entry whose depth equals the empty cells is exact to the end of the game).
    pub depth: u32,
    /// The best move found, or the move that caused a cut.
    pub best: Option<Column>,
}

impl Entry {
    /// Applies the entry to a search's window `(alpha, beta)`: the value to
    /// return at once when the entry settles the search, or else the window
    /// narrowed by the entry's bound.
    #[inline]
    pub fn cut_or_narrow(&self, alpha: &mut Value, beta: &mut Value) -> Option<Value> {
        match self.bound {
            Bound::Exact => return Some(self.value),
            Bound::Lower if self.value >= *beta => return Some(self.value),
            Bound::Lower => *alpha = (*alpha).max(self.value),
            Bound::Upper if self.value <= *alpha => return Some(self.value),
            Bound::Upper => *beta = (*beta).min(self.value),
        }
        None
    }
}

/// One entry in a word, zero when the slot is empty: bits 0-13 the value,
/// 14-19 the depth, 20-21 the bound (0 for an empty slot), 22-24 the best
/// column + 1 (0 for none), and from bit 25 the low bits of the key's
/// [`scrambled`] form, as many as the slot's index does not already tell
/// (see [`Table::check_bits`]): with them the slot names one position only.
/// (A plain word, so that a zeroed table comes straight from the allocator
/// and the operating system maps it in only as slots are touched.)
///
/// Threads searching together share the table: a slot is read and written
/// whole, as one atomic word, so no thread ever sees half of another's
/// entry, and the check bits make an entry that was replaced meanwhile a
/// miss rather than another position's value.
type Slot = u64;

const VALUE_BITS: u32 = 14;
const DEPTH_SHIFT: u32 = VALUE_BITS;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 6;
const BEST_SHIFT: u32 = BOUND_SHIFT + 2;
const CHECK_SHIFT: u32 = BEST_SHIFT + 3;

/// Position keys are below `1 << KEY_BITS` (see [`maxconnect4_game::board::Board::key`]).
const KEY_BITS: u32 = 49;

/// Tables of fewer slots than this would need more check bits than a slot
/// has room for; they store nothing.
const MIN_LEN: usize = 1 << (KEY_BITS - (Slot::BITS - CHECK_SHIFT));

/// The bits a key may have.
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;

/// An odd multiplier (Fibonacci hashing): multiplying by it modulo
/// `2^KEY_BITS` is a bijection of the keys.
const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// `key` scrambled by a bijection of the keys, so that the index taken from
/// its high bits spreads positions over the table.
#[inline]
fn scrambled(key: u64) -> u64 {
    key.wrapping_mul(MULTIPLIER) & KEY_MASK
}

/// The inverse of [`scrambled`].
fn unscrambled(scrambled: u64) -> u64 {
    // The inverse of the multiplier modulo 2^64, hence modulo 2^KEY_BITS too.
    const INVERSE: u64 = {
        let mut inverse: u64 = 1;
        let mut i = 0;
        // Newton's iteration doubles the correct low bits each time.
        while i < 6 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(MULTIPLIER.wrapping_mul(inverse)));
            i += 1;
        }
        inverse
    };
    scrambled.wrapping_mul(INVERSE) & KEY_MASK
}

/// The memory for a transposition table could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {} MB for the transposition table", bytes >> 20)]
pub struct TableTooLarge {
    /// The memory asked for, in bytes.
    pub bytes: usize,
}

/// A transposition table that starts small and grows, up to a fixed size,
/// as searches grow: a short search then never pays for clearing memory it
/// does not use, and the entries of a small one share fewer cache lines.
pub struct Table {
    /// All the slots the table may grow to, allocated at once but mapped in
    /// by the operating system only as they are first touched.
    slots: Vec<AtomicU64>,
    /// The slots in use: a prefix of `slots`. (Atomic, so that one of the
    /// threads sharing the table can grow it while the others wait: see
    /// [`Pause`].)
    len: AtomicUsize,
    /// How many low bits of a scrambled key a slot keeps.
    check_bits: AtomicU32,
}

/// A new entry replaces another position's entry unless that one was
/// searched more than this many plies deeper (or, in the classic solver,
/// cost 2^this times the nodes), and so cost far more to redo.
/// Measured on `solve` at 26 and 28 empty cells: always replacing took up to
/// 1.6 times as long, and always keeping the deeper entry up to 1.5 times.
const KEEP_DEEPER: u64 = 4;

/// Slots a table starts with (1 MiB), unless its maximum is smaller.
const INITIAL_LEN: usize = 1 << 17;

impl Table {
    /// Size in bytes of one entry.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Slot>();

    /// A table using at most `bytes` of memory; one of under 8 KiB stores nothing.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn with_bytes(bytes: usize) -> Result<Table, TableTooLarge> {
        let wanted = bytes / Self::ENTRY_BYTES;
        let slots = allocate_zeroed(if wanted < MIN_LEN { 0 } else { wanted }).ok_or(TableTooLarge { bytes })?;
        advise_huge_pages(&slots);
        let table = Table { slots, len: AtomicUsize::new(0), check_bits: AtomicU32::new(0) };
        table.set_len(table.slots.len().min(INITIAL_LEN));
        Ok(table)
    }

    /// Writes every slot the table may grow to, so that the operating system
    /// maps all its memory in now rather than during a timed search.
    pub fn map_in(&mut self) {
        self.slots.iter_mut().for_each(|slot| *slot.get_mut() = 0);
    }

    /// Forgets everything, and shrinks back to the starting size.
    pub fn clear(&mut self) {
        let len = self.len();
        self.slots[..len].iter_mut().for_each(|slot| *slot.get_mut() = 0);
        self.set_len(self.slots.len().min(INITIAL_LEN));
    }

    /// The slots in use.
    #[inline]
    fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    fn set_len(&self, len: usize) {
        self.len.store(len, Relaxed);
        self.check_bits.store(Self::check_bits(len), Relaxed);
    }

    /// How many low bits of the scrambled key a table of `len` slots keeps:
    /// enough that no two keys with the same index agree in them. Keys with
    /// the same index lie within a run of at most `2^KEY_BITS / len + 1`
    /// scrambled values, and `2^check_bits` is at least that.
    const fn check_bits(len: usize) -> u32 {
        if len == 0 { 0 } else { KEY_BITS - len.ilog2() }
    }

    /// The length the table would grow to for `wanted` slots (see
    /// [`grow_to`](Table::grow_to)), if it would: a power of two, unless
    /// its maximum is not one and it grows to that.
    fn grown_len(&self, wanted: usize) -> Option<usize> {
        let (max, now) = (self.slots.len(), self.len());
        if wanted >= max {
            return (max > now).then_some(max);
        }
        let len = if wanted == 0 { 0 } else { 1 << wanted.ilog2() };
        (len >= 2 * now).then_some(len)
    }

    /// Grows the table, within its maximum, towards `wanted` slots (to the
    /// greatest power of two not above it), keeping the entries it holds.
    /// It grows only once that is twice its size or its maximum, so that
    /// moving the entries costs in all at most twice the final size.
    pub fn grow_to(&mut self, wanted: usize) {
        self.grow_shared(wanted);
    }

    /// [`grow_to`](Table::grow_to) on a table other threads may share:
    /// each of them must wait meanwhile, neither probing nor storing, or
    /// it could take an entry moved under the new size for another
    /// position's ([`Pause`] sees to it).
    fn grow_shared(&self, wanted: usize) {
        let Some(len) = self.grown_len(wanted) else { return };
        let now = self.len();
        if now.is_power_of_two() && len.is_power_of_two() {
            self.grow_in_place(now, len);
            return;
        }
        // To a maximum that is not a power of two: every entry is placed
        // again from its key (those that land on the same slot are lost
        // but one).
        let kept: Vec<(u64, Slot)> = (0..now)
            .map(|index| (index, self.slots[index].swap(0, Relaxed)))
            .filter(|&(_, slot)| slot != 0)
            .map(|(index, slot)| (self.key_at(index, slot, now), slot))
            .collect();
        self.set_len(len);
        let data_mask = (1 << CHECK_SHIFT) - 1;
        for (key, slot) in kept {
            let (index, check) = self.place(key);
            self.slots[index].store(slot & data_mask | check << CHECK_SHIFT, Relaxed);
        }
    }

    /// Grows the table from `now` slots to `len`, both powers of two, in
    /// place and without losing an entry. The index is then the high bits
    /// of the scrambled key and the check the rest, so an entry at `index`
    /// moves to `index` times `len / now` plus its check's high bits, which
    /// are no longer kept; taken from the last slot down, no entry lands on
    /// one not yet moved.
    fn grow_in_place(&self, now: usize, len: usize) {
        let shift = len.ilog2() - now.ilog2();
        let check_bits = Self::check_bits(len);
        let data_mask = (1 << CHECK_SHIFT) - 1;
        for index in (0..now).rev() {
            let slot = self.slots[index].swap(0, Relaxed);
            if slot != 0 {
                let check = slot >> CHECK_SHIFT;
                let moved = index << shift | (check >> check_bits) as usize;
                let kept_check = check & ((1 << check_bits) - 1);
                self.slots[moved].store(slot & data_mask | kept_check << CHECK_SHIFT, Relaxed);
            }
        }
        self.set_len(len);
    }

    /// The key of the entry `slot` held in the slot at `index` of a table
    /// of `len` slots.
    fn key_at(&self, index: usize, slot: Slot, len: usize) -> u64 {
        // The scrambled keys whose index is `index` start at `first`; the
        // one stored agrees with the check in its low bits.
        let first = ((index as u128) << KEY_BITS).div_ceil(len as u128) as u64;
        let modulus = 1 << Self::check_bits(len);
        let check = slot >> CHECK_SHIFT;
        unscrambled(first + (check.wrapping_sub(first) & (modulus - 1)))
    }

    /// The slot of `key`, and the check its entry keeps.
    #[inline]
    fn place(&self, key: u64) -> (usize, u64) {
        debug_assert!(key < 1 << KEY_BITS, "key {key:#x} out of range");
        let scrambled = scrambled(key);
        // A multiply-shift onto any table length.
        let index = ((u128::from(scrambled) * self.len() as u128) >> KEY_BITS) as usize;
        (index, scrambled & ((1 << self.check_bits.load(Relaxed)) - 1))
    }

    /// Starts loading the slot for `key` into the cache, so that a probe soon
    /// after does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if !self.slots.is_empty() {
            let slot: *const AtomicU64 = &self.slots[self.place(key).0];
            // SAFETY: prefetching is only a hint; it reads nothing and cannot fault.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for the position with `key`, if one is stored.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let (index, check) = self.place(key);
        let slot = self.slots[index].load(Relaxed);
        let bound = (slot >> BOUND_SHIFT) & 3;
        if slot >> CHECK_SHIFT != check || bound == 0 {
            return None;
        }
        Some(Entry {
            value: ((slot << (Slot::BITS - VALUE_BITS)) as i64 >> (Slot::BITS - VALUE_BITS)) as Value,
            depth: ((slot >> DEPTH_SHIFT) & 0x3F) as u32,
            bound: match bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: (((slot >> BEST_SHIFT) & 7) as usize).checked_sub(1).and_then(Column::from_index),
        })
    }

    /// Stores `entry` for the position with `key`, replacing whatever was in
    /// its slot unless that was another position searched much deeper.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        if self.slots.is_empty() {
            return;
        }
        let bound = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let best = entry.best.map_or(0, |column| column.index() as u64 + 1);
        let value = (entry.value as u64) & ((1 << VALUE_BITS) - 1);
        let depth = u64::from(entry.depth.min(0x3F));
        let (index, check) = self.place(key);
        let slot = &self.slots[index];
        let old = slot.load(Relaxed);
        let old_depth = (old >> DEPTH_SHIFT) & 0x3F;
        if old >> CHECK_SHIFT == check || old == 0 || depth + KEEP_DEEPER >= old_depth {
            slot.store(
                value | depth << DEPTH_SHIFT | bound << BOUND_SHIFT | best << BEST_SHIFT | check << CHECK_SHIFT,
                Relaxed,
            );
        }
    }
}

/// The threads of one search over a shared table, which all wait while
/// one of them grows it: a table may not change its size under a thread
/// probing it. A thread asks for a pause when the nodes all have visited
/// call for a larger table; each other one joins it at its next check of
/// the clock, or by leaving the search.
pub struct Pause {
    /// Nodes the solve has visited, on every thread, as of their last checks.
    nodes: AtomicU64,
    nodes_per_slot: usize,
    /// Whether a thread waits for the others to pause (set and cleared
    /// only with `state` locked).
    asked: AtomicBool,
    state: Mutex<PauseState>,
    resumed: Condvar,
}

struct PauseState {
    /// Threads still searching.
    searching: usize,
    /// Of those, the threads waiting for the table to grow.
    waiting: usize,
    /// Pauses so far: a waiting thread resumes when this changes.
    pauses: u64,
}

impl Pause {
    /// A pause for `threads` threads of a search that has visited `nodes` nodes so far.
    pub fn new(threads: usize, nodes: u64, nodes_per_slot: usize) -> Pause {
        Pause {
            nodes: AtomicU64::new(nodes),
            nodes_per_slot,
            asked: AtomicBool::new(false),
            state: Mutex::new(PauseState { searching: threads, waiting: 0, pauses: 0 }),
            resumed: Condvar::new(),
        }
    }

    fn wanted_slots(&self) -> usize {
        usize::try_from(self.nodes.load(Relaxed)).unwrap_or(usize::MAX) / self.nodes_per_slot
    }

    /// Whether a pause is due: another thread waits for one, or the
    /// nodes call for a larger table.
    fn due(&self, table: &Table) -> bool {
        self.asked.load(Relaxed) || table.grown_len(self.wanted_slots()).is_some()
    }

    /// Counts `nodes` more visited, and waits for the table to grow if it
    /// should or another thread waits for it to.
    pub fn check(&self, table: &Table, nodes: u64) {
        self.nodes.fetch_add(nodes, Relaxed);
        if !self.due(table) {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if !self.due(table) {
            // Grown meanwhile.
            return;
        }
        self.asked.store(true, Relaxed);
        state.waiting += 1;
        if state.waiting == state.searching {
            self.grow(table, &mut state);
        } else {
            let pauses = state.pauses;
            while state.pauses == pauses {
                state = self.resumed.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        }
    }

    /// Counts a thread out of the search: the others no longer wait for it.
    pub fn leave(&self, table: &Table) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.searching -= 1;
        if state.waiting > 0 && state.waiting == state.searching {
            self.grow(table, &mut state);
        }
    }

    /// Grows the table, every other thread waiting, and lets them go on.
    fn grow(&self, table: &Table, state: &mut PauseState) {
        table.grow_shared(self.wanted_slots());
        state.waiting = 0;
        state.pauses += 1;
        self.asked.store(false, Relaxed);
        self.resumed.notify_all();
    }
}

/// `len` zeroed slots straight from the allocator, which leaves the
/// operating system to map the pages in as they are first touched; `None`
/// when the memory cannot be had.
fn allocate_zeroed(len: usize) -> Option<Vec<AtomicU64>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<AtomicU64>(len).ok()?;
    // SAFETY: the layout's size is not zero; all-zero bytes are a valid
    // `AtomicU64`; the pointer comes from the global allocator with exactly the
    // layout of a `Vec<AtomicU64>` of capacity `len`, as `from_raw_parts`
    // requires, and all `len` elements are initialised (zeroed).
    unsafe {
        let slots = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        (!slots.is_null()).then(|| Vec::from_raw_parts(slots, len, len))
    }
}

/// Asks Linux to back the table with huge pages: probes land all over the
/// table, and with 4 KiB pages nearly every one missed the TLB, while mapping
/// the pages in one at a time took a third of a short search's time.
#[cfg(target_os = "linux")]
fn advise_huge_pages(slots: &[AtomicU64]) {
    const HUGE_PAGE: usize = 2 << 20;
    let start = slots.as_ptr() as usize;
    let end = start + std::mem::size_of_val(slots);
    let aligned_start = start.next_multiple_of(HUGE_PAGE);
    let aligned_end = end - end % HUGE_PAGE;
    if aligned_start < aligned_end {
        // SAFETY: the range lies within the table's allocation; the advice
        // changes how the pages are backed, never their contents.
        unsafe {
            libc::madvise(aligned_start as *mut libc::c_void, aligned_end - aligned_start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_slots: &[AtomicU64]) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let mut table = Table::with_bytes(1 << 16).unwrap();
        let entry = Entry { value: -77, bound: Bound::Upper, depth: 9, best: Column::from_number(7) };
        table.store(12345, entry);
        assert_eq!(table.probe(12345), Some(entry));
        assert_eq!(table.probe(54321), None);
        let other = Entry { value: 5, bound: Bound::Exact, depth: 0, best: None };
        table.store(0, other);
        assert_eq!(table.probe(0), Some(other));
        table.clear();
        assert_eq!(table.probe(12345), None);
    }

    /// An entry that tells which key it was stored for.
    fn entry_for(key: u64) -> Entry {
        Entry {
            value: (key % 4000) as Value - 2000,
            bound: Bound::Exact,
            depth: (key % 43) as u32,
            best: Column::from_index(key as usize % 7),
        }
    }

    #[test]
    fn growing_keeps_entries() {
        let mut table = Table::with_bytes(64 << 20).unwrap();
        // Keys spread over the whole range, the largest included.
        let keys: Vec<u64> =
            (0..100).map(|i| i * 0x0000_51EB_851E_B851 % (1 << KEY_BITS)).chain([(1 << KEY_BITS) - 1]).collect();
        for &key in &keys {
            table.store(key, entry_for(key));
        }
        // Towards a length that is not a power of two, then to the maximum.
        table.grow_to(3 << 18);
        assert_eq!(table.len(), 1 << 19);
        assert!(keys.iter().all(|&key| table.probe(key) == Some(entry_for(key))));
        table.grow_to(1 << 30);
        assert_eq!(table.len(), 8 << 20, "never beyond the size asked for");
        assert!(keys.iter().all(|&key| table.probe(key) == Some(entry_for(key))));
        table.clear();
        assert_eq!(table.len(), INITIAL_LEN);
        assert!(keys.iter().all(|&key| table.probe(key).is_none()));

        // To a maximum that is not a power of two.
        let mut table = Table::with_bytes(3 << 20).unwrap();
        for &key in &keys {
            table.store(key, entry_for(key));
        }
        table.grow_to(usize::MAX);
        assert_eq!(table.len(), 3 << 17);
        assert!(keys.iter().all(|&key| table.probe(key) == Some(entry_for(key))));
    }

    #[test]
    fn growing_in_place_loses_no_entry_and_mistakes_none() {
        let mut table = Table::with_bytes(64 << 20).unwrap();
        // More keys than slots: many slots are taken by the last of several.
        let keys: Vec<u64> = (1..300_000u64).map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D) % (1 << KEY_BITS)).collect();
        for &key in &keys {
            table.store(key, entry_for(key));
        }
        let found = |table: &Table| -> Vec<u64> {
            keys.iter().copied().filter(|&key| table.probe(key).is_some_and(|entry| entry == entry_for(key))).collect()
        };
        let before = found(&table);
        assert!(before.len() > INITIAL_LEN / 2, "{} entries found", before.len());
        table.grow_to(INITIAL_LEN * 8);
        assert_eq!(table.len(), INITIAL_LEN * 8);
        assert_eq!(found(&table), before);
        // No key stored over has come back, as another's entry or its own.
        let kept: std::collections::HashSet<u64> = before.iter().copied().collect();
        let lost: Vec<u64> = keys.iter().copied().filter(|key| !kept.contains(key)).collect();
        assert!(lost.iter().all(|&key| table.probe(key).is_none()));
    }

    #[test]
    fn threads_sharing_a_table_grow_it_together() {
        let table = Table::with_bytes(64 << 20).unwrap();
        table.store(12345, entry_for(12345));
        let pause = Pause::new(2, 0, 1);
        std::thread::scope(|scope| {
            // This thread's nodes call for a table of 2^20 slots: it waits
            // for the other to pause or leave, whichever comes first.
            let asking = scope.spawn(|| pause.check(&table, 1 << 20));
            pause.leave(&table);
            asking.join().unwrap();
        });
        assert_eq!(table.len(), 1 << 20);
        assert_eq!(table.probe(12345), Some(entry_for(12345)));
        // The one thread left grows it alone, without waiting.
        pause.check(&table, 1 << 21);
        assert_eq!(table.len(), 1 << 21);
    }

    #[test]
    fn a_small_table_never_mistakes_one_position_for_another() {
        let table = Table::with_bytes(MIN_LEN * Table::ENTRY_BYTES).unwrap();
        assert_eq!(table.len(), MIN_LEN);
        let keys: Vec<u64> = (1..20_000u64).map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D) % (1 << KEY_BITS)).collect();
        for &key in &keys {
            table.store(key, entry_for(key));
        }
        let mut found = 0;
        for &key in &keys {
            if let Some(entry) = table.probe(key) {
                assert_eq!(entry, entry_for(key), "key {key}");
                found += 1;
            }
        }
        assert!(found > MIN_LEN / 2, "{found} entries found");
    }

    #[test]
    fn an_impossible_size_is_an_error() {
        assert_eq!(Table::with_bytes(usize::MAX).err(), Some(TableTooLarge { bytes: usize::MAX }));
    }

    #[test]
    fn a_zero_or_too_small_table_stores_nothing() {
        for bytes in [0, MIN_LEN * Table::ENTRY_BYTES - 1] {
            let table = Table::with_bytes(bytes).unwrap();
            table.store(1, Entry { value: 1, bound: Bound::Exact, depth: 1, best: None });
            assert_eq!(table.probe(1), None);
        }
    }
}
