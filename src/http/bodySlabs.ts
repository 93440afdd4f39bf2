/**
 * Buffers for response bodies, cut one after another from slabs: a feed body of a few KB is above the
 * 4 KB that Node cuts from its own pool, so without this each response would allocate an ArrayBuffer of
 * its own, work for the garbage collector on every kept answer sent (docs/benchmarks.md). A slab is
 * freed when the last body cut from it is dropped; no byte of a slab is handed out twice, so a body
 * still being sent is never written over. What goes into a body is the caller's (versionsAnswers.ts).
 */

/** An allocator of `length`-byte buffers from slabs of `slabBytes`; bodies over a quarter of a slab get their own. */
export function bodySlabs(slabBytes: number): (length: number) => Buffer {
  let slab = Buffer.alloc(0);
  let used = 0;
  return (length) => {
    if (length > slabBytes / 4) return Buffer.allocUnsafeSlow(length);
    if (used + length > slab.length) {
      slab = Buffer.allocUnsafeSlow(slabBytes);
      used = 0;
    }
    const body = slab.subarray(used, used + length);
    // The next body starts at a multiple of 8, as Node aligns the buffers of its own pool.
    used += (length + 7) & ~7;
    return body;
  };
}
