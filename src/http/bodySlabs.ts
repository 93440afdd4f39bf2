/**
 * Buffers for response bodies, cut one after another from slabs: a feed body of a few KB is above the
 * 4 KB that Node cuts from its own pool, so without this each response would allocate an ArrayBuffer of
 * its own, work for the garbage collector on every kept answer sent (docs/benchmarks.md). A slab is
 * freed when the last body cut from it is dropped; no byte of a slab is handed out twice, so a body
 * still being sent is never written over. What goes into a body is the caller's (versionsAnswers.ts).
 * Bodies that are kept get buffers of their own, their text encoded once (ownBytesOf).
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

/**
 * Text encoded as UTF-8 into a buffer of its own, exactly as long as its bytes, encoded once: written into
 * a scratch buffer that has room for any text of its length (three bytes per UTF-16 unit at most), then
 * copied, instead of measured (Buffer.byteLength, a pass over the text) and then written. `write` is
 * given the scratch buffer and writes the body into it from offset 0, returning its length; the scratch
 * buffer is shared, grows to the largest room asked for up to 1 MB, and is never handed out.
 */
export function ownBytesOf(room: number, write: (scratch: Buffer) => number): Buffer {
  // The rare body with room for more than MAX_SCRATCH_BYTES gets a scratch buffer for itself alone.
  if (scratch.length < room && room <= MAX_SCRATCH_BYTES) scratch = Buffer.allocUnsafeSlow(Math.min(MAX_SCRATCH_BYTES, Math.max(room, 2 * scratch.length)));
  const into = scratch.length >= room ? scratch : Buffer.allocUnsafeSlow(room);
  const length = write(into);
  const bytes = Buffer.allocUnsafeSlow(length);
  into.copy(bytes, 0, 0, length);
  return bytes;
}

const MAX_SCRATCH_BYTES = 1024 * 1024;
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
