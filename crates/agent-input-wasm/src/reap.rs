//! The Node module's global allocator (feature `speed`): small blocks are bumped out of 64 KiB
//! chunks, each chunk counts its live blocks, and a chunk whose count falls to zero is reused
//! whole. A conversion allocates tens of thousands of small blocks (the JSON tree, the model, the
//! wire structs) and frees every one before it returns, so the free-list work a general allocator
//! does per block is wasted: with talc it was an eighth of a 2,000-message conversion
//! (docs/decisions.md, "npm: the 2,000-message conversation, a third round").
//!
//! Blocks over [`SMALL`] bytes or aligned more strictly than [`HEADER`] go to the backing
//! allocator, as do the chunks themselves. A block that outlives its call (a cache) keeps its
//! chunk from being reused, so memory is bounded by the chunks such blocks sit in plus the
//! largest call's small blocks, and [`KEEP`] emptied chunks wait for the next call.
//!
//! It keeps its state in `Cell`s: sound only where one thread allocates, which is why the
//! `Sync` it needs to be a `static` is only given to single-threaded WebAssembly.
#![allow(unsafe_code)] // an allocator is made of raw pointers
#![allow(clippy::cast_ptr_alignment)] // chunks are aligned to CHUNK, words at their start are too

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::ptr;

/// A chunk's size and alignment: a block finds its chunk's count by masking its own address.
const CHUNK: usize = 64 * 1024;
/// The largest block bumped; larger ones go to the backing allocator.
const SMALL: usize = 2048;
/// The count at the start of each chunk, and the most alignment a bumped block gets.
const HEADER: usize = 16;
/// How many emptied chunks wait for reuse; more go back to the backing allocator.
const KEEP: usize = 16;

/// Bump allocation in counted chunks over a backing allocator `B`.
#[derive(Debug)]
pub(crate) struct Reaping<B> {
    back: B,
    /// The chunk blocks are bumped from, or null before the first.
    current: Cell<*mut u8>,
    /// Its first free byte.
    next: Cell<*mut u8>,
    /// The bytes after `next` in it.
    left: Cell<usize>,
    /// Emptied chunks, each holding the address of the next in its first word.
    spare: Cell<*mut u8>,
    spares: Cell<usize>,
}

// SAFETY: the state is only touched from the one thread single-threaded WebAssembly has.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl<B: Sync> Sync for Reaping<B> {}

impl<B: GlobalAlloc> Reaping<B> {
    pub(crate) const fn new(back: B) -> Self {
        Self {
            back,
            current: Cell::new(ptr::null_mut()),
            next: Cell::new(ptr::null_mut()),
            left: Cell::new(0),
            spare: Cell::new(ptr::null_mut()),
            spares: Cell::new(0),
        }
    }

    fn bumped(layout: Layout) -> bool {
        layout.size() <= SMALL && layout.align() <= HEADER
    }

    fn chunk_layout() -> Layout {
        // CHUNK is a power of two and no size overflows with it.
        Layout::from_size_align(CHUNK, CHUNK).unwrap_or(Layout::new::<u8>())
    }

    /// The live-block count of the chunk `block` lies in.
    fn count(block: *mut u8) -> *mut usize {
        block.map_addr(|addr| addr & !(CHUNK - 1)).cast()
    }

    /// Makes a spare or new chunk current; false when the backing allocator has no memory.
    unsafe fn next_chunk(&self) -> bool {
        let spare = self.spare.get();
        let chunk = if spare.is_null() {
            // SAFETY: the layout has a non-zero size.
            let chunk = unsafe { self.back.alloc(Self::chunk_layout()) };
            if chunk.is_null() {
                return false;
            }
            chunk
        } else {
            // SAFETY: a spare chunk's first word is the next spare's address (see `retire`).
            self.spare.set(unsafe { spare.cast::<*mut u8>().read() });
            self.spares.set(self.spares.get() - 1);
            spare
        };
        // SAFETY: the chunk is CHUNK bytes, aligned to CHUNK, and ours.
        unsafe {
            chunk.cast::<usize>().write(0);
            self.start(chunk);
        }
        true
    }

    /// Bumps from the start of `chunk`, which has no live block.
    unsafe fn start(&self, chunk: *mut u8) {
        self.current.set(chunk);
        // SAFETY: HEADER < CHUNK.
        self.next.set(unsafe { chunk.add(HEADER) });
        self.left.set(CHUNK - HEADER);
    }

    /// A chunk with no live block that is not current: kept for the next, or given back.
    unsafe fn retire(&self, chunk: *mut u8) {
        if self.spares.get() < KEEP {
            // SAFETY: the chunk is ours and unused; its first word links it.
            unsafe { chunk.cast::<*mut u8>().write(self.spare.get()) };
            self.spare.set(chunk);
            self.spares.set(self.spares.get() + 1);
        } else {
            // SAFETY: the chunk came from `back` with this layout.
            unsafe { self.back.dealloc(chunk, Self::chunk_layout()) };
        }
    }
}

// SAFETY: bumped blocks never overlap (each is carved from `left` bytes past `next`, which then
// moves past it), stay within their chunk, and are aligned as asked (`pad`); a chunk is reused
// only when no block in it is live. The rest is the backing allocator's.
unsafe impl<B: GlobalAlloc> GlobalAlloc for Reaping<B> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !Self::bumped(layout) {
            // SAFETY: the caller's layout, passed on.
            return unsafe { self.back.alloc(layout) };
        }
        let mut pad = self.next.get().addr().wrapping_neg() & (layout.align() - 1);
        if pad + layout.size() > self.left.get() {
            // SAFETY: only our own state changes.
            if !unsafe { self.next_chunk() } {
                return ptr::null_mut();
            }
            pad = 0; // a chunk's first block is HEADER-aligned
        }
        // SAFETY: `pad + size` bytes fit in the `left` bytes after `next`.
        unsafe {
            let block = self.next.get().add(pad);
            self.next.set(block.add(layout.size()));
            self.left.set(self.left.get() - pad - layout.size());
            *Self::count(block) += 1;
            block
        }
    }

    #[inline]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if !Self::bumped(layout) {
            // SAFETY: the caller's block, from `back` with this layout.
            return unsafe { self.back.dealloc(block, layout) };
        }
        let count = Self::count(block);
        // SAFETY: a bumped block's chunk starts with its count.
        unsafe {
            *count -= 1;
            if *count == 0 {
                let chunk = count.cast::<u8>();
                if chunk == self.current.get() { self.start(chunk) } else { self.retire(chunk) }
            }
        }
    }

    #[inline]
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        // SAFETY: the caller guarantees `new_size` makes a valid layout with this alignment.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (Self::bumped(layout), Self::bumped(new_layout)) {
            (true, true) => {
                // SAFETY: `block` and its `old` bytes are the caller's live block.
                let end = unsafe { block.add(old) };
                // The last block bumped grows or shrinks where it is.
                if end == self.next.get() && new_size <= old + self.left.get() {
                    // SAFETY: the new end is within the chunk (`left` bytes follow `end`).
                    self.next.set(unsafe { block.add(new_size) });
                    self.left.set(old + self.left.get() - new_size);
                    return block;
                }
                // Any other shrinks in place: only its chunk's count matters when it is freed.
                if new_size <= old {
                    return block;
                }
            }
            // SAFETY: a block of the backing allocator staying there: its own realloc, which may
            // grow it where it is (the body buffer, megabytes for a large image).
            (false, false) => return unsafe { self.back.realloc(block, layout, new_size) },
            (true, false) | (false, true) => {}
        }
        // SAFETY: as `alloc`, then a copy of the bytes both blocks hold, then `dealloc`.
        unsafe {
            let moved = self.alloc(new_layout);
            if !moved.is_null() {
                ptr::copy_nonoverlapping(block, moved, old.min(new_size));
                self.dealloc(block, layout);
            }
            moved
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use std::alloc::System;

    /// The system allocator, counting the bytes it has out.
    #[derive(Debug, Default)]
    struct Counting {
        out: Cell<usize>,
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            self.out.set(self.out.get() + layout.size());
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
            self.out.set(self.out.get() - layout.size());
            unsafe { System.dealloc(block, layout) }
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Alloc { size: usize, align_log2: u32 },
        Free(usize),
        Realloc(usize, usize),
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        let size = prop_oneof![4 => 1..=64_usize, 2 => 65..=SMALL, 1 => SMALL - 8..=SMALL + 8, 1 => SMALL..=3 * SMALL];
        prop_oneof![
            3 => (size.clone(), 0..=5_u32).prop_map(|(size, align_log2)| Op::Alloc { size, align_log2 }),
            2 => any::<usize>().prop_map(Op::Free),
            1 => (any::<usize>(), size).prop_map(|(i, size)| Op::Realloc(i, size)),
        ]
    }

    /// A live block: where, its layout, and the byte it was filled with.
    struct Live(*mut u8, Layout, u8);

    fn fill(Live(block, layout, byte): &Live) {
        unsafe { ptr::write_bytes(*block, *byte, layout.size()) }
    }

    fn intact(Live(block, layout, byte): &Live) -> bool {
        unsafe { std::slice::from_raw_parts(*block, layout.size()) }.iter().all(|b| b == byte)
    }

    fn overlaps(a: &Live, b: &Live) -> bool {
        a.0.addr() < b.0.addr() + b.1.size() && b.0.addr() < a.0.addr() + a.1.size()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Blocks are aligned, disjoint and keep their bytes through reallocation; once all are
        /// freed, no more than the kept chunks stay out, however often the sequence runs.
        #[test]
        fn blocks_are_disjoint_and_memory_comes_back(ops in proptest::collection::vec(op(), 1..400)) {
            let heap = Reaping::new(Counting::default());
            for round in 0..3_u8 {
                let mut live: Vec<Live> = Vec::new();
                for (n, op) in ops.iter().enumerate() {
                    let byte = n.to_le_bytes()[0] ^ round;
                    match *op {
                        Op::Alloc { size, align_log2 } => {
                            let layout = Layout::from_size_align(size, 1 << align_log2).unwrap();
                            let block = unsafe { heap.alloc(layout) };
                            proptest::prop_assert!(!block.is_null());
                            proptest::prop_assert_eq!(block.addr() % layout.align(), 0);
                            let new = Live(block, layout, byte);
                            proptest::prop_assert!(!live.iter().any(|other| overlaps(&new, other)));
                            fill(&new);
                            live.push(new);
                        }
                        Op::Free(i) if !live.is_empty() => {
                            let old = live.swap_remove(i % live.len());
                            proptest::prop_assert!(intact(&old));
                            unsafe { heap.dealloc(old.0, old.1) };
                        }
                        Op::Realloc(i, size) if !live.is_empty() => {
                            let Live(block, layout, old_byte) = live.swap_remove(i % live.len());
                            let kept = layout.size().min(size);
                            let moved = unsafe { heap.realloc(block, layout, size) };
                            proptest::prop_assert!(!moved.is_null());
                            let layout = Layout::from_size_align(size, layout.align()).unwrap();
                            proptest::prop_assert_eq!(moved.addr() % layout.align(), 0);
                            proptest::prop_assert!(intact(&Live(moved, Layout::from_size_align(kept, 1).unwrap(), old_byte)));
                            let new = Live(moved, layout, byte);
                            proptest::prop_assert!(!live.iter().any(|other| overlaps(&new, other)));
                            fill(&new);
                            live.push(new);
                        }
                        Op::Free(_) | Op::Realloc(..) => {}
                    }
                }
                for block in live.drain(..) {
                    proptest::prop_assert!(intact(&block));
                    unsafe { heap.dealloc(block.0, block.1) };
                }
                // The current chunk and the kept ones; every large block went back.
                proptest::prop_assert!(heap.back.out.get() <= (KEEP + 1) * CHUNK, "{} bytes out", heap.back.out.get());
            }
        }
    }

    #[test]
    fn a_call_s_blocks_reuse_the_same_chunks() {
        let heap = Reaping::new(Counting::default());
        let layout = Layout::from_size_align(48, 8).unwrap();
        let mut first = None;
        for _ in 0..5 {
            // Ten chunks' worth of small blocks, all freed, as one conversion does.
            let blocks: Vec<_> = (0..10 * CHUNK / 48).map(|_| unsafe { heap.alloc(layout) }).collect();
            first.get_or_insert(blocks[0]);
            for block in blocks {
                unsafe { heap.dealloc(block, layout) };
            }
            assert_eq!(heap.back.out.get(), 11 * CHUNK, "the chunks are kept, not given back and taken again");
        }
        // The chunk that was current when the last block went is bumped from its start again.
        let again = unsafe { heap.alloc(layout) };
        assert_eq!(heap.next.get().addr() - again.addr(), 48);
        assert_eq!(again.addr() % CHUNK, HEADER);
    }

    #[test]
    fn the_last_block_grows_where_it_is() {
        let heap = Reaping::new(Counting::default());
        let layout = Layout::from_size_align(16, 8).unwrap();
        let block = unsafe { heap.alloc(layout) };
        let grown = unsafe { heap.realloc(block, layout, 1024) };
        assert_eq!(grown, block);
        let other = unsafe { heap.alloc(layout) };
        assert_eq!(other.addr(), block.addr() + 1024);
        // No longer last: it moves.
        let layout = Layout::from_size_align(1024, 8).unwrap();
        let moved = unsafe { heap.realloc(grown, layout, 2048) };
        assert_ne!(moved, grown);
    }
}
