/**
 * A byte string as a stream delivers it: in pieces cut at the given offsets, so that readers are tested
 * with records, fields and characters split across chunk boundaries.
 */
export async function* chunksOf(bytes: Uint8Array, cuts: readonly number[] = []): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of cuts) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
  yield bytes.subarray(from);
}
