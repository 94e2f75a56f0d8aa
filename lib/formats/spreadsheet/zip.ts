// A small read-only zip reader for spreadsheet containers (XLSX, ODS), built for hostile input:
// entries are looked up by exact name in a Map (names are never paths, `__proto__` is just a
// name), each entry is inflated with a running byte budget shared by the whole archive (a zip
// bomb stops at the budget, whatever sizes it declares), sizes and CRCs are checked, and every
// offset is bounds-checked. Stored and deflated entries only; no encryption, no ZIP64.
import { AppError } from '../../errors.js';
import zlib from 'node:zlib';

/** Most bytes one archive may inflate to, over all the entries read from it. */
export const DEFAULT_INFLATE_BUDGET = 256 * 1024 * 1024;
/** Most entries a spreadsheet archive may list. */
export const MAX_ZIP_ENTRIES = 20_000;

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

function corrupt(what: string, detail: string): never {
  throw new AppError('invalid_spreadsheet', `the ${what} file is damaged: ${detail}`);
}

/** True when the bytes start like a zip archive (a local file header, or an empty archive). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

export class ZipArchive {
  private readonly view: DataView;
  private readonly entries = new Map<string, ZipEntry>();
  private budget: number;
  private readonly limitText: string;

  /** `what` names the file kind in messages ("XLSX", "ODS"). */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
    budget: number = DEFAULT_INFLATE_BUDGET,
  ) {
    this.budget = budget;
    this.limitText = budget >= 1 << 20 ? `${Math.floor(budget / (1 << 20))} MB` : `${budget} bytes`;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.readCentralDirectory();
  }

  private readCentralDirectory(): void {
    const { bytes, view } = this;
    // The end of central directory record sits in the last 22 + 65,535 bytes.
    let eocd = -1;
    for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 65_535; at--) {
      if (view.getUint32(at, true) === EOCD_SIGNATURE) {
        eocd = at;
        break;
      }
    }
    if (eocd === -1) corrupt(this.what, 'it is not a complete zip archive (no end of central directory; truncated?)');
    const count = view.getUint16(eocd + 10, true);
    const directorySize = view.getUint32(eocd + 12, true);
    const directoryOffset = view.getUint32(eocd + 16, true);
    if (count === 0xffff || directoryOffset === 0xffffffff) {
      corrupt(this.what, 'it is a ZIP64 archive, which spreadsheets of an importable size never need');
    }
    if (count > MAX_ZIP_ENTRIES) {
      throw new AppError('archive_too_large', `the ${this.what} archive has ${count} entries; at most ${MAX_ZIP_ENTRIES} are allowed`);
    }
    if (directoryOffset + directorySize > eocd) corrupt(this.what, 'its central directory lies outside the file');

    const decoder = new TextDecoder('utf-8');
    let at = directoryOffset;
    for (let index = 0; index < count; index++) {
      if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
        corrupt(this.what, 'its central directory is broken');
      }
      const flags = view.getUint16(at + 8, true);
      const method = view.getUint16(at + 10, true);
      const crc = view.getUint32(at + 16, true);
      const compressedSize = view.getUint32(at + 20, true);
      const size = view.getUint32(at + 24, true);
      const nameLength = view.getUint16(at + 28, true);
      const extraLength = view.getUint16(at + 30, true);
      const commentLength = view.getUint16(at + 32, true);
      const localHeaderOffset = view.getUint32(at + 42, true);
      const nameEnd = at + 46 + nameLength;
      if (nameEnd > eocd) corrupt(this.what, 'its central directory is broken');
      const name = decoder.decode(bytes.subarray(at + 46, nameEnd));
      // The first entry of a name wins; later duplicates are ignored.
      if (!this.entries.has(name)) {
        this.entries.set(name, { name, method, flags, crc, compressedSize, size, localHeaderOffset });
      }
      at = nameEnd + extraLength + commentLength;
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Inflates one entry; undefined when the archive has no entry of that name. */
  read(name: string): Uint8Array | undefined {
    const entry = this.entries.get(name);
    if (entry === undefined) return undefined;
    const { view, bytes, what } = this;
    if (entry.flags & 1) throw new AppError('encrypted_spreadsheet', `the ${what} file is encrypted (entry ${JSON.stringify(name)})`);
    if (entry.size > this.budget) {
      throw new AppError('archive_too_large', `the ${what} file unpacks to more than ${this.limitText}`);
    }
    const local = entry.localHeaderOffset;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_SIGNATURE) {
      corrupt(what, `the entry ${JSON.stringify(name)} cannot be found where the directory says`);
    }
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const dataEnd = dataStart + entry.compressedSize;
    if (dataEnd > bytes.length) corrupt(what, `the entry ${JSON.stringify(name)} is cut short`);
    const data = bytes.subarray(dataStart, dataEnd);

    let output: Uint8Array;
    if (entry.method === 0) {
      output = data;
    } else if (entry.method === 8) {
      try {
        // One byte over the budget tells "exactly the budget" from "more".
        output = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, this.budget + 1) });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new AppError('archive_too_large', `the ${what} file unpacks to more than ${this.limitText}`);
        }
        corrupt(what, `the entry ${JSON.stringify(name)} cannot be inflated`);
      }
    } else {
      corrupt(what, `the entry ${JSON.stringify(name)} uses compression method ${entry.method}, which is not supported`);
    }
    if (output.length > this.budget) {
      throw new AppError('archive_too_large', `the ${what} file unpacks to more than ${this.limitText}`);
    }
    this.budget -= output.length;
    if (output.length !== entry.size) corrupt(what, `the entry ${JSON.stringify(name)} does not have its declared size`);
    if (zlib.crc32(output) !== entry.crc) corrupt(what, `the entry ${JSON.stringify(name)} fails its checksum`);
    return output;
  }

  /** An entry as UTF-8 text (a byte order mark is dropped); undefined when absent. */
  readText(name: string): string | undefined {
    const data = this.read(name);
    return data === undefined ? undefined : new TextDecoder('utf-8').decode(data);
  }
}
