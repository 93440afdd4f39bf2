/**
 * A file as chunks of bytes for the streaming readers (ISO 2709, MARCXML), opened only when reading
 * starts, so that a reader made for a missing file fails when it is read, as a source should. A caller that
 * draws progress passes `onBytesRead`, told the size of each chunk as it is read.
 */
import { createReadStream } from 'node:fs';
import { InvalidArgumentError } from './errors.js';

/** 64 KB: large enough that reading costs little per record, small enough to keep memory flat. */
const READ_CHUNK_BYTES = 1 << 16;

/**
 * The path a reader was given, when it is one: a non-empty string. Anything else (a Buffer of the file's
 * bytes, a number, an object) is an InvalidArgumentError naming the reader, rather than a file name.
 */
export function checkedFilePath(reader: string, path: unknown): string {
  if (typeof path !== 'string' || path === '') {
    throw new InvalidArgumentError(reader, 'path', 'the path of a file (a non-empty string; bytes in memory are not read here)', path);
  }
  return path;
}

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
