// A tiny zip writer for fixtures and hostile test archives: stored or deflated entries (or any
// other method number, over data written as is), with the option to lie about sizes and
// checksums, to set flags, or to add central-directory aliases that point at another entry's
// data (the overlapping-entry zip bomb).
import zlib from 'node:zlib';

export interface ZipInput {
  name: string;
  /** Entry content (text is written as UTF-8). Ignored for aliases. */
  data?: Uint8Array | string;
  /** Already deflated bytes to write as-is (method 8); `size` and `crc` must then be given. */
  deflated?: Uint8Array;
  /** Write `data` as is under method 0 (the same as `method: 0`). */
  store?: boolean;
  /** The compression method in the headers: 8 deflates `data` (the default); any other writes it as is. */
  method?: number;
  /** Declared uncompressed size (default: the real one). */
  size?: number;
  /** Declared CRC-32 (default: the real one). */
  crc?: number;
  flags?: number;
  /** Make this a central-directory entry that points at the named entry's local data. */
  aliasOf?: string;
}

interface Written {
  offset: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  flags: number;
}

const DOS_TIME = 0;
const DOS_DATE = (2024 - 1980) << 9 | (3 << 5) | 1;

export function makeZip(entries: ZipInput[]): Uint8Array {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  const written = new Map<string, Written>();
  let offset = 0;

  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    let info: Written;
    if (entry.aliasOf !== undefined) {
      const target = written.get(entry.aliasOf);
      if (target === undefined) throw new Error(`alias target ${entry.aliasOf} not written yet`);
      info = { ...target, size: entry.size ?? target.size };
    } else {
      const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data ?? []);
      const method = entry.deflated !== undefined ? 8 : entry.store ? 0 : (entry.method ?? 8);
      let body: Buffer;
      if (entry.deflated !== undefined) body = Buffer.from(entry.deflated);
      else body = method === 8 ? zlib.deflateRawSync(raw) : raw;
      info = {
        offset,
        method,
        crc: entry.crc ?? zlib.crc32(raw),
        compressedSize: body.length,
        size: entry.size ?? raw.length,
        flags: entry.flags ?? 0x0800,
      };
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      writeEntryFields(local, 6, info, name.length);
      chunks.push(local, name, body);
      offset += local.length + name.length + body.length;
      written.set(entry.name, info);
    }
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    writeEntryFields(record, 8, info, name.length);
    record.writeUInt32LE(info.offset, 42);
    central.push(record, name);
  }

  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...chunks, directory, end]));
}

/**
 * The fields a local header and a central directory record share, in the same order from `at`:
 * flags, method, time, date, CRC-32, compressed size, size, name length.
 */
function writeEntryFields(buffer: Buffer, at: number, info: Written, nameLength: number): void {
  buffer.writeUInt16LE(info.flags, at);
  buffer.writeUInt16LE(info.method, at + 2);
  buffer.writeUInt16LE(DOS_TIME, at + 4);
  buffer.writeUInt16LE(DOS_DATE, at + 6);
  buffer.writeUInt32LE(info.crc >>> 0, at + 8);
  buffer.writeUInt32LE(info.compressedSize, at + 12);
  buffer.writeUInt32LE(info.size, at + 16);
  buffer.writeUInt16LE(nameLength, at + 20);
}

/**
 * Raw deflate data that inflates to `megabytes` MB of zeros while staying about 1 kB per MB:
 * one sync-flushed block of 1 MB zeros repeated, then a final empty block.
 */
export function zeroBomb(megabytes: number): Uint8Array {
  const block = zlib.deflateRawSync(Buffer.alloc(1 << 20), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const final = zlib.deflateRawSync(Buffer.alloc(0));
  const parts: Buffer[] = [];
  for (let index = 0; index < megabytes; index++) parts.push(block);
  parts.push(final);
  return new Uint8Array(Buffer.concat(parts));
}
