/**
 * A file as chunks of bytes for the streaming readers (ISO 2709, MARCXML), opened only when reading
 * starts, so that a reader made for a missing file fails when it is read, as a source should. A caller that
 * draws progress passes `onBytesRead`, told the size of each chunk as it is read.
 */
import { createReadStream } from 'node:fs';

/** 64 KB: large enough that reading costs little per record, small enough to keep memory flat. */
const READ_CHUNK_BYTES = 1 << 16;

export function fileChunks(path: string, onBytesRead?: (bytes: number) => void): AsyncIterable<Uint8Array> {
  if (onBytesRead === undefined) {
    return {
      [Symbol.asyncIterator]: () => createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })[Symbol.asyncIterator](),
    };
  }
  return {
    async *[Symbol.asyncIterator]() {
      for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }) as AsyncIterable<Buffer>) {
        onBytesRead(chunk.length);
        yield chunk;
      }
    },
  };
}
