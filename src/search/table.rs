//! The transposition table: what earlier searches learned about positions,
//! so a position reached again by another move order is not searched again.
//!
//! One entry per slot; a new entry takes the slot unless the one there was
//! searched much deeper (see [`KEEP_DEEPER`]). An entry keeps the full
//! position key, so a hit is never a different position.

use crate::board::Column;
use crate::score::Value;

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

/// The position key, then the `Entry` packed: bits 0-15 value, 16-23 depth,
/// 24-25 bound, 26-29 best column + 1 (0 for none), bit 31 set when the slot
/// is in use. (A plain array, so that a zeroed table comes straight from the
/// allocator and the operating system maps it in only as slots are touched.)
type Slot = [u64; 2];

const IN_USE: u64 = 1 << 31;

/// The memory for a transposition table could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {} MB for the transposition table", bytes >> 20)]
pub struct TableTooLarge {
    pub bytes: usize,
}

/// A transposition table that starts small and grows, up to a fixed size,
/// as searches grow: a short search then never pays for clearing memory it
/// does not use.
pub struct Table {
    /// All the slots the table may grow to, allocated at once but mapped in
    /// by the operating system only as they are first touched.
    slots: Vec<Slot>,
    /// The slots in use: a prefix of `slots`.
    len: usize,
}

/// A new entry replaces another position's entry unless that one was
/// searched more than this many plies deeper, and so cost far more to redo.
/// Measured on `solve` at 26 and 28 empty cells: always replacing took up to
/// 1.6 times as long, and always keeping the deeper entry up to 1.5 times.
const KEEP_DEEPER: u64 = 4;

/// Slots a table starts with (1 MiB), unless its maximum is smaller.
const INITIAL_LEN: usize = 1 << 16;

impl Table {
    /// Size in bytes of one entry.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Slot>();

    /// A table using at most `bytes` of memory; 0 (or less than one entry)
    /// gives a table that stores nothing.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn with_bytes(bytes: usize) -> Result<Table, TableTooLarge> {
        let slots = allocate_zeroed(bytes / Self::ENTRY_BYTES).ok_or(TableTooLarge { bytes })?;
        advise_huge_pages(&slots);
        let len = slots.len().min(INITIAL_LEN);
        Ok(Table { slots, len })
    }

    /// Writes every slot the table may grow to, so that the operating system
    /// maps all its memory in now rather than during a timed search.
    pub fn map_in(&mut self) {
        self.slots.fill([0; 2]);
    }

    /// Forgets everything, and shrinks back to the starting size.
    pub fn clear(&mut self) {
        self.slots[..self.len].fill([0; 2]);
        self.len = self.slots.len().min(INITIAL_LEN);
    }

    /// Grows the table, within its maximum, to at least `wanted` slots,
    /// keeping the entries it holds (those that land on the same new slot
    /// are lost but one). It grows only once `wanted` is twice its size or
    /// its maximum, so that moving the entries costs in all at most twice
    /// the final size.
    pub fn grow_to(&mut self, wanted: usize) {
        let len = wanted.min(self.slots.len());
        if len <= self.len || (len < 2 * self.len && len < self.slots.len()) {
            return;
        }
        let kept: Vec<Slot> = self.slots[..self.len].iter().copied().filter(|[_, data]| data & IN_USE != 0).collect();
        self.slots[..self.len].fill([0; 2]);
        self.len = len;
        for [key, data] in kept {
            let index = self.index(key);
            self.slots[index] = [key, data];
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Fibonacci hashing, then a multiply-shift onto any table length.
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((u128::from(mixed) * self.len as u128) >> 64) as usize
    }

    /// Starts loading the slot for `key` into the cache, so that a probe soon
    /// after does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if !self.slots.is_empty() {
            let slot: *const Slot = &self.slots[self.index(key)];
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
        let [stored_key, data] = self.slots[self.index(key)];
        if stored_key != key || data & IN_USE == 0 {
            return None;
        }
        Some(Entry {
            value: Value::from(data as u16 as i16),
            depth: ((data >> 16) & 0xFF) as u32,
            bound: match (data >> 24) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: (((data >> 26) & 0xF) as usize).checked_sub(1).and_then(Column::from_index),
        })
    }

    /// Stores `entry` for the position with `key`, replacing whatever was in its slot.
    #[inline]
    pub fn store(&mut self, key: u64, entry: Entry) {
        if self.slots.is_empty() {
            return;
        }
        let bound = match entry.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let best = entry.best.map_or(0, |column| column.index() as u64 + 1);
        let value = u64::from(entry.value as i16 as u16);
        let data = value | u64::from(entry.depth.min(255)) << 16 | bound << 24 | best << 26 | IN_USE;
        let index = self.index(key);
        let [old_key, old_data] = self.slots[index];
        let depth = |data: u64| (data >> 16) & 0xFF;
        if old_key == key || old_data & IN_USE == 0 || depth(data) + KEEP_DEEPER >= depth(old_data) {
            self.slots[index] = [key, data];
        }
    }
}

/// `len` zeroed slots straight from the allocator, which leaves the
/// operating system to map the pages in as they are first touched; `None`
/// when the memory cannot be had.
fn allocate_zeroed(len: usize) -> Option<Vec<Slot>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<Slot>(len).ok()?;
    // SAFETY: the layout's size is not zero; all-zero bytes are a valid
    // `[u64; 2]`; the pointer comes from the global allocator with exactly the
    // layout of a `Vec<Slot>` of capacity `len`, as `from_raw_parts` requires,
    // and all `len` elements are initialised (zeroed).
    unsafe {
        let slots = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        (!slots.is_null()).then(|| Vec::from_raw_parts(slots, len, len))
    }
}

/// Asks Linux to back the table with huge pages: probes land all over the
/// table, and with 4 KiB pages nearly every one missed the TLB, while mapping
/// the pages in one at a time took a third of a short search's time.
#[cfg(target_os = "linux")]
fn advise_huge_pages(slots: &[Slot]) {
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
fn advise_huge_pages(_slots: &[Slot]) {}

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

    #[test]
    fn growing_keeps_entries() {
        let mut table = Table::with_bytes(64 << 20).unwrap();
        let entry = Entry { value: 3, bound: Bound::Lower, depth: 4, best: Column::from_number(2) };
        for key in 0..100 {
            table.store(key * 7919, entry);
        }
        table.grow_to(1 << 20);
        assert_eq!(table.len, 1 << 20);
        assert!((0..100).all(|key| table.probe(key * 7919) == Some(entry)));
        table.grow_to(1 << 30);
        assert_eq!(table.len, 4 << 20, "never beyond the size asked for");
        assert!((0..100).all(|key| table.probe(key * 7919) == Some(entry)));
        table.clear();
        assert_eq!(table.len, INITIAL_LEN);
        assert!((0..100).all(|key| table.probe(key * 7919).is_none()));
    }

    #[test]
    fn an_impossible_size_is_an_error() {
        assert_eq!(Table::with_bytes(usize::MAX).err(), Some(TableTooLarge { bytes: usize::MAX }));
    }

    #[test]
    fn a_zero_table_stores_nothing() {
        let mut table = Table::with_bytes(0).unwrap();
        table.store(1, Entry { value: 1, bound: Bound::Exact, depth: 1, best: None });
        assert_eq!(table.probe(1), None);
    }
}
