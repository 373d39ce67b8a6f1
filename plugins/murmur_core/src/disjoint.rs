//! Writes from many threads into one buffer at indices no two threads share (a permutation's
//! targets), without locks.

/// A pointer into a buffer that the threads of a pass share, each writing its own indices.
#[derive(Clone, Copy)]
pub(crate) struct DisjointWrites<T>(*mut T);

// SAFETY: only `write` goes through the pointer, and its callers promise disjoint indices.
unsafe impl<T> Sync for DisjointWrites<T> {}
// SAFETY: as above.
unsafe impl<T> Send for DisjointWrites<T> {}

impl<T> DisjointWrites<T> {
    /// Writes into `buffer`, which must outlive every `write`.
    pub(crate) fn new(buffer: &mut [T]) -> Self {
        Self(buffer.as_mut_ptr())
    }

    /// A target that is never written (a column a 2D flock does not have).
    pub(crate) fn unused() -> Self {
        Self(std::ptr::NonNull::dangling().as_ptr())
    }

    /// Writes `value` at index `k`.
    ///
    /// # Safety
    /// `k` is within the buffer, the buffer is alive and not otherwise borrowed, and no other
    /// thread reads or writes index `k` during the pass.
    #[inline(always)]
    pub(crate) unsafe fn write(self, k: usize, value: T) {
        // SAFETY: passed on from the caller.
        unsafe { self.0.add(k).write(value) }
    }
}
