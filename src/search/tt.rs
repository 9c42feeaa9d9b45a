//! Shared transposition table: lockless, sized by the `Hash` option.
//!
//! Each slot holds two `AtomicU64`: the packed data, and the key XOR the data.
//! A reader accepts a slot only if `stored ^ data == key`, so an entry torn
//! by two threads writing at once is detected and ignored, never trusted
//! (Hyatt's lockless hashing). Slots are grouped in buckets of
//! [`BUCKET`]; replacement prefers empty, stale (older search), then shallow.

use crate::types::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Entries per bucket: 4 x 16 bytes, one 64-byte cache line (buckets start
/// on cache-line boundaries, see `TranspositionTable::first`).
const BUCKET: usize = 4;
const CACHE_LINE: usize = 64;
const _: () = assert!(BUCKET * std::mem::size_of::<Slot>() == CACHE_LINE);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// The bound a search result `best` has for the window it was searched
    /// with, `alpha` as it was before any move raised it.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

// Slot layout. `data`: move (bits 0-31) | score as i16 (32-47) | static eval
// as i16 (48-63). `check`: ((key with its low 16 bits replaced by the meta
// field) XOR data); meta = depth + 1 (bits 0-7) | bound (8-9, 0 = empty) |
// search age (10-15). Only the key's high 48 bits are verified. The bucket
// index is taken from the high bits as well (multiply-shift), so it adds no
// independent bits: an entry is matched on 48 bits of the key.
const META_BITS: u32 = 16;
const META_MASK: u64 = (1 << META_BITS) - 1;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    /// The slots, with up to `BUCKET - 1` spare ones in front: the table
    /// proper starts at `first`, the first slot on a cache-line boundary.
    slots: Vec<Slot>,
    first: usize,
    buckets: usize,
    age: AtomicU8,
}

fn pack_meta(depth: i32, bound: Bound, age: u8) -> u64 {
    let d = (depth.clamp(-1, 254) + 1) as u64; // 0..=255
    let b = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    d | (b << 8) | ((age as u64 & 63) << 10)
}

fn unpack_meta(meta: u64) -> Option<(i32, Bound, u8)> {
    let bound = match (meta >> 8) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(((meta & 255) as i32 - 1, bound, ((meta >> 10) & 63) as u8))
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket), or an error if
    /// the memory cannot be had (the caller keeps its old table).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        // The pages are faulted in lazily as the search writes them (see
        // `zeroed_slots`), but a full table would still use them all: refuse
        // more than the machine has free rather than be killed by the kernel
        // late in a game.
        if let Some(avail) = available_memory_bytes()
            && bytes as u64 > avail / 10 * 9
        {
            return Err(format!("cannot allocate a {mb} MB hash table: only {} MB of memory available", avail >> 20));
        }
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let slots =
            zeroed_slots(buckets * BUCKET + BUCKET - 1).ok_or(format!("cannot allocate a {mb} MB hash table"))?;
        Ok(TranspositionTable::aligned(slots, buckets))
    }

    /// A small table that is always available (1 MB).
    pub fn new_small() -> TranspositionTable {
        let buckets = (1024 * 1024) / (BUCKET * std::mem::size_of::<Slot>());
        let mut slots = Vec::new();
        slots.resize_with(buckets * BUCKET + BUCKET - 1, Slot::default);
        TranspositionTable::aligned(slots, buckets)
    }

    fn aligned(slots: Vec<Slot>, buckets: usize) -> TranspositionTable {
        // Slots are 16 bytes and allocations at least 16-aligned: some slot
        // among the first four starts a cache line.
        let first = slots.as_ptr().align_offset(CACHE_LINE).min(BUCKET - 1);
        TranspositionTable { slots, first, buckets, age: AtomicU8::new(0) }
    }

    /// The table proper: `buckets * BUCKET` slots, cache-line aligned.
    #[inline(always)]
    fn table(&self) -> &[Slot] {
        &self.slots[self.first..self.first + self.buckets * BUCKET]
    }

    /// Size in megabytes (as the `Hash` option gives it).
    pub fn megabytes(&self) -> usize {
        (self.buckets * BUCKET * std::mem::size_of::<Slot>()) >> 20
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.store(self.age.load(Ordering::Relaxed).wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// Asks the CPU to bring `key`'s bucket into the cache: called as soon
    /// as a child's key is known, so that the probe at the child does not
    /// wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.table()[self.bucket(key)] as *const Slot as *const i8;
            // SAFETY: a prefetch is only a hint; SSE is part of x86-64.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let base = self.bucket(key);
        for slot in &self.table()[base..base + BUCKET] {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed) ^ data;
            if check & !META_MASK == key & !META_MASK {
                let (depth, bound, _) = unpack_meta(check & META_MASK)?;
                return Some(TtEntry {
                    mv: Move::from_raw(data as u32),
                    score: (data >> 32) as u16 as i16 as i32,
                    eval: (data >> 48) as u16 as i16 as i32,
                    depth,
                    bound,
                });
            }
        }
        None
    }

    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let base = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut victim = base;
        let mut victim_worth = i32::MAX;
        for i in base..base + BUCKET {
            let slot = &self.table()[i];
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed) ^ data;
            match unpack_meta(check & META_MASK) {
                None => {
                    victim = i;
                    break;
                }
                Some((d, b, a)) => {
                    if check & !META_MASK == key & !META_MASK {
                        // Same position: keep an old move if we have none,
                        // and a deeper entry unless this one is exact.
                        if depth + 2 < d && bound != Bound::Exact && a == age {
                            return;
                        }
                        let mv = if mv.is_none() { Move::from_raw(data as u32) } else { mv };
                        let _ = b;
                        self.write(i, key, mv, score, eval, depth, bound, age);
                        return;
                    }
                    let stale = if a == age { 0 } else { 256 };
                    let worth = d - stale;
                    if worth < victim_worth {
                        victim_worth = worth;
                        victim = i;
                    }
                }
            }
        }
        self.write(victim, key, mv, score, eval, depth, bound, age);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn write(&self, i: usize, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) {
        let data = mv.raw() as u64
            | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 32)
            | ((eval.clamp(-32767, 32767) as i16 as u16 as u64) << 48);
        let check = (key & !META_MASK) | pack_meta(depth, bound, age);
        let slot = &self.table()[i];
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(check ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let table = self.table();
        let n = table.len().min(1000);
        let used = table[..n]
            .iter()
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                let check = s.check.load(Ordering::Relaxed) ^ data;
                unpack_meta(check & META_MASK).is_some_and(|(_, _, a)| a == age)
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// Free memory as the kernel reports it (`MemAvailable`), where it does.
/// `n` empty slots in freshly zeroed memory. The allocator takes large
/// zeroed blocks straight from the kernel, whose pages are zero until first
/// written: a table of gigabytes is ready at once, and its pages are faulted
/// in as the search reaches them (no thread spends seconds filling it).
fn zeroed_slots(n: usize) -> Option<Vec<Slot>> {
    if n == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<Slot>(n).ok()?;
    // SAFETY: the layout has a non-zero size (n > 0 slots of 16 bytes).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Slot>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of
    // `[Slot; n]`, which is the layout `Vec<Slot>` with capacity `n` frees
    // with; all-zero bytes are a valid `Slot` (two `AtomicU64`, which have
    // the in-memory representation of `u64`), so all `n` are initialised.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

fn available_memory_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new_small();
        let m = Move::normal(Square::E1, Square::E8);
        tt.store(0xDEAD_BEEF_1234_5678, m, -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound), (m, -123, 45, 7, Bound::Lower));
        assert!(tt.probe(0x1111_2222_3333_4444).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678).is_none());
    }

    #[test]
    fn absurd_sizes_are_refused() {
        assert!(TranspositionTable::try_new(usize::MAX / (1 << 20)).is_err());
    }

    #[test]
    fn buckets_start_on_cache_lines() {
        for tt in [TranspositionTable::new_small(), TranspositionTable::try_new(3).unwrap()] {
            assert_eq!(tt.table().as_ptr() as usize % CACHE_LINE, 0);
            assert_eq!(tt.table().len(), tt.buckets * BUCKET);
        }
    }

    #[test]
    fn torn_entry_is_rejected() {
        let tt = TranspositionTable::new_small();
        let key = 0xABCD_EF01_2345_6789;
        tt.store(key, Move::NONE, 10, 0, 3, Bound::Exact);
        let i = tt.bucket(key);
        // Simulate a torn write: data from another store, check from this one.
        tt.table()[i].data.fetch_xor(1 << 40, Ordering::Relaxed);
        assert!(tt.probe(key).is_none());
    }
}
