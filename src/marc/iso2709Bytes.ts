/**
 * The bytes of ISO 2709 ("binary MARC") as both its readers' steps see them: the terminators and sizes the
 * standard fixes, and the small readers of leader and directory bytes (digits, tags, a printable excerpt
 * for a problem's message) that cutting records out of a stream (iso2709Reader.ts), checking one record's
 * leader and directory (iso2709RecordParser.ts) and decoding its fields (iso2709Fields.ts) share.
 */

export const RECORD_TERMINATOR = 0x1d;
export const FIELD_TERMINATOR = 0x1e;
export const LEADER_LENGTH = 24;
export const ENTRY_LENGTH = 12;
/** The most a leader's five digits can say. */
export const MAX_RECORD_LENGTH = 99_999;

/** `count` ASCII digits at `at` as a number, or -1 if any is not a digit. */
export function readDigits(buffer: Buffer, at: number, count: number): number {
  let value = 0;
  for (let k = 0; k < count; k += 1) {
    const byte = buffer[at + k];
    if (byte === undefined || byte < 0x30 || byte > 0x39) return -1;
    value = value * 10 + (byte - 0x30);
  }
  return value;
}

export function printable(buffer: Buffer, from: number, to: number): string {
  return JSON.stringify(buffer.toString('latin1', from, to));
}

/** Tags as strings, made once each (the same few dozen tags come back in every record). */
const tagStrings = new Map<number, string>();
export function tagAt(buffer: Buffer, at: number): string {
  const key = ((buffer[at] as number) << 16) | ((buffer[at + 1] as number) << 8) | (buffer[at + 2] as number);
  let tag = tagStrings.get(key);
  if (tag === undefined) {
    tag = buffer.toString('latin1', at, at + 3);
    if (tagStrings.size < 4096) tagStrings.set(key, tag);
  }
  return tag;
}

export function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
