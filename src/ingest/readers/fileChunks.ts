/**
 * A file as chunks of bytes for the streaming readers (ISO 2709, MARCXML), opened only when reading
 * starts, so that a reader made for a missing file fails when it is read, as a source should.
 */
import { createReadStream } from 'node:fs';

/** 64 KB: large enough that reading costs little per record, small enough to keep memory flat. */
const READ_CHUNK_BYTES = 1 << 16;

export function fileChunks(path: string): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })[Symbol.asyncIterator](),
  };
}
