/**
 * A configset folder as the zip the Configsets API's UPLOAD takes (docs/solr.md, "The work collection"):
 * the files of its conf/ folder at the zip's root, deflated, written with node:zlib alone. The entries carry
 * a fixed date (1980-01-01), so the same configset always gives the same bytes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

/** The files under `folder`, depth first, as zip entry names (forward slashes) with their bytes. */
function filesUnder(folder: string, root = folder): Array<{ name: string; bytes: Buffer }> {
  const out: Array<{ name: string; bytes: Buffer }> = [];
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, root));
    else if (entry.isFile()) out.push({ name: relative(root, path).split(sep).join('/'), bytes: readFileSync(path) });
  }
  return out;
}

// DOS date of 1980-01-01 (day 1, month 1, year 0), time 00:00:00.
const DOS_DATE = (1 << 5) | 1;
const DOS_TIME = 0;
// Bit 11: the names are UTF-8.
const UTF8_NAMES = 0x0800;
const DEFLATED = 8;
const VERSION_NEEDED = 20;

/** Version needed, flags, method, time, date, CRC-32, sizes and the name's length, from `at`; the extra field's length 0. */
function writeEntryFields(buffer: Buffer, at: number, crc: number, packedSize: number, size: number, nameLength: number): void {
  buffer.writeUInt16LE(VERSION_NEEDED, at);
  buffer.writeUInt16LE(UTF8_NAMES, at + 2);
  buffer.writeUInt16LE(DEFLATED, at + 4);
  buffer.writeUInt16LE(DOS_TIME, at + 6);
  buffer.writeUInt16LE(DOS_DATE, at + 8);
  buffer.writeUInt32LE(crc, at + 10);
  buffer.writeUInt32LE(packedSize, at + 14);
  buffer.writeUInt32LE(size, at + 18);
  buffer.writeUInt16LE(nameLength, at + 22);
  buffer.writeUInt16LE(0, at + 24);
}

/** The zip of the files under `folder` (a configset's conf/ folder), their paths relative to it. */
export function zipFolder(folder: string): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const files = filesUnder(folder);
  for (const { name, bytes } of files) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(bytes);
    const crc = crc32(bytes);
    // The local header and the central directory's entry share their fields from "version needed" to
    // the name's length; the central one has "version made by" before them and more after.
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, crc, packed.length, bytes.length, nameBytes.length);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(VERSION_NEEDED, 4);
    writeEntryFields(header, 6, crc, packed.length, bytes.length, nameBytes.length);
    // Extra field, comment, disk number, internal and external attributes: none.
    header.writeUInt32LE(offset, 42);
    parts.push(local, nameBytes, packed);
    central.push(header, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
