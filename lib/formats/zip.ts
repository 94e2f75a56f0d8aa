// The one zip reader of the imports (KMZ, XLSX, ODS): a central-directory reader on Node's zlib,
// built for hostile input, so that every limit is ours:
// - at most `maxEntries` entries, refused from the end record before any entry is read;
// - entries are inflated only when asked for, whole or piece by piece (readPieces), and stop
//   at what is left of the archive's inflated-bytes budget (shared by every read, so entries
//   that overlap in the file still pay for each read), at the compressed size × `maxRatio` when
//   the caller sets a ratio cap, and just past the declared size (a lying size stops there);
// - declared sizes beyond the budget or the ratio are refused before inflating; the inflated
//   size and the CRC-32 are checked against the directory;
// - encrypted entries, ZIP64 and multi-disk archives are refused; stored and deflated entries
//   only; every offset is bounds-checked;
// - entry names are only ever looked up (in a Map: `__proto__` is a plain key), never used as
//   file paths; names that would climb out of the archive (`../x`, `/x`, `C:x`) are dropped,
//   and so are directory entries. Backslashes in names are read as slashes.
// Failures are AppErrors: `archive_too_large` for the limits, the caller's `invalidCode` for
// damaged archives and unsupported zip features, `encryptedCode` (default: `invalidCode`) for
// encrypted entries. Messages name the archive by the caller's `label`.
import { AppError, type ErrorCode } from '../errors.js';
import { crc32, createInflateRaw, inflateRawSync } from 'node:zlib';
import { shorten } from '../geojson/json-data.js';

export interface ZipLimits {
  /** Most entries (files and folders) the archive may list. */
  maxEntries: number;
  /** Most bytes all the reads from the archive together may inflate to. */
  maxInflatedBytes: number;
  /** Highest inflated : compressed ratio of an entry (beyond `ratioAllowance`); no cap when absent. */
  maxRatio?: number;
  /** With `maxRatio`: every entry may inflate to this many bytes whatever its ratio. */
  ratioAllowance?: number;
}

export interface ZipOptions extends ZipLimits {
  /** Names the archive in messages: "KMZ", "spreadsheet". */
  label: string;
  /** The code of errors for a damaged archive or a zip feature that is not supported. */
  invalidCode: ErrorCode;
  /** The code of the error for an encrypted entry (default: `invalidCode`). */
  encryptedCode?: ErrorCode;
}

/** A file entry as the central directory declares it. */
export interface ZipEntry {
  /** The entry name, with backslashes read as slashes; never a path to open. */
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  readonly crc: number;
  readonly compressedSize: number;
  /** The declared inflated size (checked when the entry is read). */
  readonly size: number;
  readonly localOffset: number;
}

/**
 * An entry may inflate this many bytes past its declared size before the inflating stops: an
 * entry that turns out a little longer than it says is reported as damaged, one that runs on
 * past this is reported as a zip bomb (archive_too_large). Either way it is refused.
 */
export const DECLARED_SIZE_SLACK = 64 * 1024;

/** Where an entry's compressed bytes are and the limits of its inflating. */
interface Located {
  compressed: Uint8Array;
  /** What is left of the archive's inflated-bytes budget. */
  left: number;
  /** Just past the declared size. */
  overrunLimit: number;
  /** The lowest of `left`, the ratio cap and `overrunLimit`: inflating stops beyond it. */
  limit: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

/** An entry name quoted for a message (long names cut short). */
export const quoteEntryName = (name: string): string => JSON.stringify(shorten(name, 60));

const sizeText = (bytes: number): string => (bytes >= 1 << 20 ? `${Math.floor(bytes / (1 << 20))} MB` : `${bytes} bytes`);

/** The folder of an entry name ("xl" for "xl/workbook.xml", "" at the top). */
export function folderOf(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash === -1 ? '' : name.slice(0, slash);
}

/**
 * An entry name from a path inside the archive: relative to `baseFolder`, or from the root when
 * it starts with "/"; "." and ".." are resolved. Undefined when it climbs out of the archive or
 * names nothing.
 */
export function joinArchivePath(baseFolder: string, path: string): string | undefined {
  const segments = path.startsWith('/') ? [] : baseFolder.split('/').filter((segment) => segment !== '');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.length === 0 ? undefined : segments.join('/');
}

/** Entry names that point outside the archive if used as a path, or cannot be names at all. */
function isUnsafeName(name: string): boolean {
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\u0000')) return true;
  return name.split('/').includes('..');
}

export class ZipArchive {
  /** Safe file entries in archive order (the first entry of each name). */
  readonly entries: readonly ZipEntry[];
  private readonly byName = new Map<string, ZipEntry>();
  private readonly view: DataView;
  private inflated = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly options: ZipOptions,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.entries = this.readCentralDirectory();
  }

  /** The entry of this name, if the archive has one. */
  entry(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  names(): string[] {
    return this.entries.map((entry) => entry.name);
  }

  /** The named entry's content, inflated within the limits; undefined when there is no such entry. */
  read(name: string): Uint8Array | undefined {
    const entry = this.byName.get(name);
    return entry === undefined ? undefined : this.readEntry(entry);
  }

  /** The entry's content, inflated within the limits (a copy: it never holds on to the archive's bytes). */
  readEntry(entry: ZipEntry): Uint8Array {
    const located = this.locate(entry);
    const { compressed, left, limit } = located;
    let content: Uint8Array;
    if (entry.method === 0) {
      content = compressed.slice();
    } else {
      try {
        content = inflateRawSync(compressed, { maxOutputLength: Math.max(1, limit) });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw this.overrun(entry, located);
        throw this.notInflatable(entry, error);
      }
    }
    if (content.length > left) throw this.budgetError();
    this.inflated += content.length;
    this.checkContent(entry, content.length, crc32(content));
    return content;
  }

  /**
   * The entry's content in pieces as it is inflated (by zlib's thread pool, while the caller
   * reads the piece before), within the same limits as readEntry. The size and CRC are checked
   * when the last piece has been read; a caller that stops early (an ODS reader done with the
   * first table) gets no such check for what it did not read.
   */
  async *readPieces(entry: ZipEntry, pieceBytes = 64 * 1024): AsyncGenerator<Uint8Array> {
    const located = this.locate(entry);
    const { compressed, limit } = located;
    let produced = 0;
    let crc = 0;
    try {
      if (entry.method === 0) {
        for (let at = 0; at < compressed.length; at += pieceBytes) {
          const piece = compressed.subarray(at, at + pieceBytes);
          produced += piece.length;
          crc = crc32(piece, crc);
          yield piece;
        }
      } else {
        // zlib fills larger buffers (fewer round trips to its thread pool), handed on in pieces.
        const inflater = createInflateRaw({ chunkSize: 4 * pieceBytes });
        inflater.end(compressed);
        try {
          for await (const chunk of inflater as AsyncIterable<Buffer>) {
            produced += chunk.length;
            if (produced > limit) throw this.overrun(entry, located);
            crc = crc32(chunk, crc);
            for (let at = 0; at < chunk.length; at += pieceBytes) yield chunk.subarray(at, at + pieceBytes);
          }
        } catch (error) {
          throw error instanceof AppError ? error : this.notInflatable(entry, error);
        } finally {
          inflater.destroy();
        }
      }
    } finally {
      // What was inflated counts against the budget, also when the reader stopped early.
      this.inflated += produced;
    }
    this.checkContent(entry, produced, crc);
  }

  /** The entry's compressed bytes and how far it may inflate, after the checks that need no inflating. */
  private locate(entry: ZipEntry): Located {
    const { bytes, view, options } = this;
    const at = entry.localOffset;
    if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) {
      throw this.corrupt(`the entry ${quoteEntryName(entry.name)} is missing or damaged`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > bytes.length) throw this.corrupt(`the entry ${quoteEntryName(entry.name)} is truncated`);
    const compressed = bytes.subarray(start, end);

    const left = options.maxInflatedBytes - this.inflated;
    const ratioLimit =
      options.maxRatio === undefined
        ? Number.POSITIVE_INFINITY
        : Math.max(options.ratioAllowance ?? 0, entry.compressedSize * options.maxRatio);
    if (entry.size > left) throw this.budgetError();
    if (entry.size > ratioLimit) throw this.ratioError(entry);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) throw this.corrupt(`the stored entry ${quoteEntryName(entry.name)} has inconsistent sizes`);
    } else if (entry.method !== 8) {
      throw new AppError(
        options.invalidCode,
        `the ${options.label} entry ${quoteEntryName(entry.name)} uses zip compression method ${entry.method}; only stored and deflated entries are supported`,
      );
    }
    const overrunLimit = entry.size + DECLARED_SIZE_SLACK + 1;
    return { compressed, left, overrunLimit, limit: Math.min(left, ratioLimit, overrunLimit) };
  }

  /** The error for an entry that inflates to more than its `limit`: which of the limits it ran into. */
  private overrun(entry: ZipEntry, { limit, left, overrunLimit }: Located): AppError {
    if (limit === overrunLimit) {
      return new AppError(
        'archive_too_large',
        `the ${this.options.label} entry ${quoteEntryName(entry.name)} inflates to more than the size it declares; the archive looks like a zip bomb`,
      );
    }
    return limit === left ? this.budgetError() : this.ratioError(entry);
  }

  private notInflatable(entry: ZipEntry, error: unknown): AppError {
    return this.corrupt(`the entry ${quoteEntryName(entry.name)} cannot be inflated (${(error as Error).message})`);
  }

  private checkContent(entry: ZipEntry, size: number, crc: number): void {
    if (size !== entry.size) throw this.corrupt(`the entry ${quoteEntryName(entry.name)} is not the size the archive declares`);
    if (crc !== entry.crc) throw this.corrupt(`the entry ${quoteEntryName(entry.name)} fails its CRC check`);
  }

  private readCentralDirectory(): ZipEntry[] {
    const { bytes, view, options } = this;
    const eocd = this.findEndOfCentralDirectory();
    const disk = view.getUint16(eocd + 4, true);
    const directoryDisk = view.getUint16(eocd + 6, true);
    const count = view.getUint16(eocd + 10, true);
    const directorySize = view.getUint32(eocd + 12, true);
    const directoryOffset = view.getUint32(eocd + 16, true);
    if (
      count === 0xffff ||
      directoryOffset === 0xffffffff ||
      (eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR_SIGNATURE)
    ) {
      throw this.zip64Error();
    }
    if (disk !== 0 || directoryDisk !== 0) {
      throw new AppError(options.invalidCode, `the ${options.label} file is a multi-part (spanned) zip archive, which is not supported`);
    }
    if (count > options.maxEntries) {
      throw new AppError('archive_too_large', `the ${options.label} archive has ${count} entries; at most ${options.maxEntries} are allowed`);
    }
    if (directoryOffset + directorySize > eocd) throw this.corrupt('the central directory lies outside the file (truncated?)');

    const entries: ZipEntry[] = [];
    const decoder = new TextDecoder('utf-8');
    let at = directoryOffset;
    for (let index = 0; index < count; index++) {
      if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw this.corrupt('the central directory is damaged');
      const flags = view.getUint16(at + 8, true);
      const method = view.getUint16(at + 10, true);
      const crc = view.getUint32(at + 16, true);
      const compressedSize = view.getUint32(at + 20, true);
      const size = view.getUint32(at + 24, true);
      const nameLength = view.getUint16(at + 28, true);
      const extraLength = view.getUint16(at + 30, true);
      const commentLength = view.getUint16(at + 32, true);
      const localOffset = view.getUint32(at + 42, true);
      const next = at + 46 + nameLength + extraLength + commentLength;
      if (next > eocd) throw this.corrupt('the central directory is damaged');
      const rawName = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
      at = next;

      // Bit 0: encrypted; bit 6: strong encryption; method 99: AES.
      if ((flags & 0x41) !== 0 || method === 99) {
        throw new AppError(
          options.encryptedCode ?? options.invalidCode,
          `the ${options.label} archive has an encrypted entry (${quoteEntryName(rawName)}); encrypted archives are not supported`,
        );
      }
      if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) throw this.zip64Error();
      const name = rawName.replaceAll('\\', '/');
      if (name === '' || name.endsWith('/')) continue; // a directory
      if (isUnsafeName(name) || this.byName.has(name)) continue; // the first entry of a name wins
      const entry: ZipEntry = { name, flags, method, crc, compressedSize, size, localOffset };
      this.byName.set(name, entry);
      entries.push(entry);
    }
    return entries;
  }

  /** The end of central directory record: in the last 22 + 65,535 bytes, its comment inside the file. */
  private findEndOfCentralDirectory(): number {
    const { view } = this;
    const length = view.byteLength;
    const lowest = Math.max(0, length - 22 - 0xffff);
    for (let at = length - 22; at >= lowest; at--) {
      if (view.getUint32(at, true) === EOCD_SIGNATURE && at + 22 + view.getUint16(at + 20, true) <= length) return at;
    }
    throw this.corrupt('its end record is missing (the file is truncated or damaged)');
  }

  private corrupt(detail: string): AppError {
    return new AppError(this.options.invalidCode, `the ${this.options.label} file is not a readable zip archive: ${detail}`);
  }

  private zip64Error(): AppError {
    return new AppError(this.options.invalidCode, `the ${this.options.label} file is a ZIP64 archive, which is not supported`);
  }

  private budgetError(): AppError {
    return new AppError('archive_too_large', `the ${this.options.label} archive inflates to more than ${sizeText(this.options.maxInflatedBytes)}`);
  }

  private ratioError(entry: ZipEntry): AppError {
    return new AppError(
      'archive_too_large',
      `the ${this.options.label} entry ${quoteEntryName(entry.name)} inflates to more than ${this.options.maxRatio} times its compressed size; the archive looks like a zip bomb`,
    );
  }
}
