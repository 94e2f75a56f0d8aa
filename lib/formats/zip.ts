// The one zip reader of the imports (KMZ, XLSX, ODS), built for hostile input. yauzl reads the
// archive's structure (end record, ZIP64 records, central directory, extra fields) and streams
// the entries' data for readPieces (readEntry, synchronous, finds the data from the local header
// itself); zlib inflates; every limit is ours:
// - at most `maxEntries` entries, refused from the end record before any entry is read;
// - entries are inflated only when asked for, whole or piece by piece (readPieces), and stop
//   at what is left of the archive's inflated-bytes budget (shared by every read, so entries
//   that overlap in the file still pay for each read), at the compressed size × `maxRatio` when
//   the caller sets a ratio cap, and just past the declared size (a lying size stops there);
// - declared sizes beyond the budget or the ratio are refused before inflating; the inflated
//   size and the CRC-32 are checked against the directory (yauzl checks neither the way we
//   need: its size check cannot tell a damaged entry from a zip bomb, and it has no CRC check);
// - ZIP64 archives are read (yauzl takes sizes, offsets and the entry count from the ZIP64
//   records, and the same limits apply); encrypted entries and multi-disk archives are refused;
//   stored and deflated entries only; every offset is bounds-checked;
// - entry names are only ever looked up (in a Map: `__proto__` is a plain key), never used as
//   file paths; names that would climb out of the archive (`../x`, `/x`, `C:x`, by yauzl's
//   validateFileName) are dropped, and so are directory entries. Backslashes in names are read
//   as slashes. Names are read as UTF-8 whatever the flags say (yauzl's decodeStrings would read
//   unflagged names as CP437 and refuse the whole archive for one unsafe name).
// Failures are AppErrors: `archive_too_large` for the limits, the caller's `invalidCode` for
// damaged archives and unsupported zip features, `encryptedCode` (default: `invalidCode`) for
// encrypted entries. Messages name the archive by the caller's `label`.
import type { Readable } from 'node:stream';
import { crc32, createInflateRaw, inflateRawSync } from 'node:zlib';
import { fromBufferPromise, validateFileName, type Entry, type ZipFile } from 'yauzl';
import { AppError, type ErrorCode } from '../errors.js';
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

/** How far an entry may inflate. */
interface Bounds {
  /** What is left of the archive's inflated-bytes budget. */
  left: number;
  /** Just past the declared size. */
  overrunLimit: number;
  /** The lowest of `left`, the ratio cap and `overrunLimit`: inflating stops beyond it. */
  limit: number;
}

const LOCAL_SIGNATURE = 0x04034b50;
const NAME_DECODER = new TextDecoder('utf-8');

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

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function corrupt(options: ZipOptions, detail: string): AppError {
  return new AppError(options.invalidCode, `the ${options.label} file is not a readable zip archive: ${detail}`);
}

function encryptedError(options: ZipOptions, which: string): AppError {
  return new AppError(
    options.encryptedCode ?? options.invalidCode,
    `the ${options.label} archive has an encrypted entry (${which}); encrypted archives are not supported`,
  );
}

/**
 * A failure of yauzl's reading of the archive's structure, as one of our errors. yauzl's errors
 * are plain Errors told apart only by their messages (stable within the pinned version).
 */
function structureError(options: ZipOptions, error: unknown): AppError {
  const message = messageOf(error);
  if (message.startsWith('multi-disk')) {
    return new AppError(options.invalidCode, `the ${options.label} file is a multi-part (spanned) zip archive, which is not supported`);
  }
  if (message.startsWith('strong encryption')) return encryptedError(options, 'with strong encryption');
  if (message.startsWith('End of central directory record signature not found')) {
    return corrupt(options, 'its end record is missing (the file is truncated or damaged)');
  }
  // yauzl takes the last end-record signature in the file and wants it to end the file.
  if (message.startsWith('Invalid comment length')) return corrupt(options, 'its end record is damaged, or followed by other data');
  if (/zip64/i.test(message)) return corrupt(options, 'its ZIP64 records are damaged');
  if (message === 'unexpected EOF') return corrupt(options, 'the central directory lies outside the file (truncated?)');
  return corrupt(options, 'the central directory is damaged');
}

export class ZipArchive {
  /** Safe file entries in archive order (the first entry of each name). */
  readonly entries: readonly ZipEntry[];
  private readonly found: ZipEntry[] = [];
  private readonly byName = new Map<string, ZipEntry>();
  /** yauzl's entry behind each of ours, to open its data. */
  private readonly sources = new Map<ZipEntry, Entry>();
  private readonly view: DataView;
  private inflated = 0;

  /**
   * Reads the archive's directory. yauzl reads asynchronously (even from a buffer), hence a
   * factory instead of a constructor.
   */
  static async open(bytes: Uint8Array, options: ZipOptions): Promise<ZipArchive> {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let zipfile: ZipFile;
    try {
      // Sizes are checked by us (readPieces, checkContent), not by yauzl: its check refuses a
      // stored entry with unequal sizes when the directory is read, not when the entry is.
      zipfile = await fromBufferPromise(buffer, { decodeStrings: false, validateEntrySizes: false });
    } catch (error) {
      throw structureError(options, error);
    }
    if (zipfile.entryCount > options.maxEntries) {
      throw new AppError('archive_too_large', `the ${options.label} archive has ${zipfile.entryCount} entries; at most ${options.maxEntries} are allowed`);
    }
    const archive = new ZipArchive(bytes, options, zipfile);
    try {
      for await (const source of zipfile.eachEntry()) archive.add(source);
    } catch (error) {
      throw error instanceof AppError ? error : structureError(options, error);
    }
    return archive;
  }

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly options: ZipOptions,
    private readonly zipfile: ZipFile,
  ) {
    this.entries = this.found;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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

  /**
   * The entry's content, inflated within the limits (a copy: it never holds on to the archive's
   * bytes). Synchronous, unlike yauzl's streams, because the KMZ reader looks up icons and images
   * from inside the (synchronous) KML conversion: the entry's data is found from its local header
   * here and inflated by zlib in one call, stopping at the limit.
   */
  readEntry(entry: ZipEntry): Uint8Array {
    const compressed = this.entryData(entry);
    const bounds = this.bounds(entry);
    let content: Uint8Array;
    if (entry.method === 0) {
      content = compressed.slice();
    } else {
      try {
        content = inflateRawSync(compressed, { maxOutputLength: Math.max(1, bounds.limit) });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw this.overrun(entry, bounds);
        throw this.notInflatable(entry, error);
      }
    }
    if (content.length > bounds.left) throw this.budgetError();
    this.inflated += content.length;
    this.checkContent(entry, content.length, crc32(content));
    return content;
  }

  /**
   * The entry's content in pieces as it is inflated (yauzl's stream of the entry's data, through
   * zlib's thread pool while the caller reads the piece before), within the same limits as
   * readEntry. The size and CRC are checked when the last piece has been read; a caller that
   * stops early (an ODS reader done with the first table) gets no such check for what it did not
   * read.
   */
  async *readPieces(entry: ZipEntry, pieceBytes = 64 * 1024): AsyncGenerator<Uint8Array> {
    const bounds = this.bounds(entry);
    const data = await this.openData(entry);
    // Our inflater rather than yauzl's: zlib fills larger buffers (fewer round trips to its thread
    // pool; a 13 MB worksheet inflates in 23 ms against 65 ms with yauzl's 16 kB ones), handed on
    // in pieces; and destroying it frees its zlib handle at once (yauzl's destroy does not).
    const output: Readable = entry.method === 0 ? data : data.pipe(createInflateRaw({ chunkSize: 4 * pieceBytes }));
    if (output !== data) data.once('error', (error) => output.destroy(error));
    let produced = 0;
    let crc = 0;
    try {
      for await (const chunk of output as AsyncIterable<Buffer>) {
        // What is inflated counts against the budget at once, also when the reader stops early.
        produced += chunk.length;
        this.inflated += chunk.length;
        if (produced > bounds.limit) throw this.overrun(entry, bounds);
        // Another read running at the same time may have used the budget since `bounds`.
        if (this.inflated > this.options.maxInflatedBytes) throw this.budgetError();
        crc = crc32(chunk, crc);
        for (let at = 0; at < chunk.length; at += pieceBytes) yield chunk.subarray(at, at + pieceBytes);
      }
    } catch (error) {
      throw error instanceof AppError ? error : this.notInflatable(entry, error);
    } finally {
      output.destroy();
      data.destroy();
    }
    this.checkContent(entry, produced, crc);
  }

  /** Takes one central-directory entry from yauzl: refuses encryption, drops folders and unsafe names. */
  private add(source: Entry): void {
    const flags = source.generalPurposeBitFlag;
    const method = source.compressionMethod;
    const rawName = NAME_DECODER.decode(source.fileNameRaw);
    // Bit 0: encrypted; method 99: AES (bit 6, strong encryption, is refused by yauzl).
    if ((flags & 0x01) !== 0 || method === 99) throw encryptedError(this.options, quoteEntryName(rawName));
    const name = rawName.replaceAll('\\', '/');
    if (name === '' || name.endsWith('/')) return; // a directory
    if (validateFileName(name) !== null || name.includes('\u0000')) return; // `../x`, `/x`, `C:x`
    if (this.byName.has(name)) return; // the first entry of a name wins
    const entry: ZipEntry = {
      name,
      flags,
      method,
      crc: source.crc32,
      compressedSize: source.compressedSize,
      size: source.uncompressedSize,
      localOffset: source.relativeOffsetOfLocalHeader,
    };
    this.byName.set(name, entry);
    this.sources.set(entry, source);
    this.found.push(entry);
  }

  /** The checks that need no inflating, and how far the entry may inflate. */
  private bounds(entry: ZipEntry): Bounds {
    const { options } = this;
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
    return { left, overrunLimit, limit: Math.min(left, ratioLimit, overrunLimit) };
  }

  /** The entry's compressed bytes, found from its local header (what yauzl's openReadStream does, synchronously). */
  private entryData(entry: ZipEntry): Uint8Array {
    const { bytes, view } = this;
    const at = entry.localOffset;
    if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) {
      throw this.corrupt(`the entry ${quoteEntryName(entry.name)} is missing or damaged`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > bytes.length) throw this.corrupt(`the entry ${quoteEntryName(entry.name)} is truncated`);
    return bytes.subarray(start, end);
  }

  /** yauzl's stream of the entry's data as stored (compressed, when it is). */
  private async openData(entry: ZipEntry): Promise<Readable> {
    const source = this.sources.get(entry);
    if (source === undefined) throw new Error('the entry is not one of this archive');
    try {
      return await this.zipfile.openReadStreamPromise(source, { decodeFileData: false });
    } catch (error) {
      const detail = messageOf(error).startsWith('file data overflows') ? 'is truncated' : 'is missing or damaged';
      throw this.corrupt(`the entry ${quoteEntryName(entry.name)} ${detail}`);
    }
  }

  /** The error for an entry that inflates to more than its `limit`: which of the limits it ran into. */
  private overrun(entry: ZipEntry, { limit, left, overrunLimit }: Bounds): AppError {
    if (limit === overrunLimit) {
      return new AppError(
        'archive_too_large',
        `the ${this.options.label} entry ${quoteEntryName(entry.name)} inflates to more than the size it declares; the archive looks like a zip bomb`,
      );
    }
    return limit === left ? this.budgetError() : this.ratioError(entry);
  }

  private notInflatable(entry: ZipEntry, error: unknown): AppError {
    return this.corrupt(`the entry ${quoteEntryName(entry.name)} cannot be inflated (${messageOf(error)})`);
  }

  private checkContent(entry: ZipEntry, size: number, crc: number): void {
    if (size !== entry.size) throw this.corrupt(`the entry ${quoteEntryName(entry.name)} is not the size the archive declares`);
    if (crc !== entry.crc) throw this.corrupt(`the entry ${quoteEntryName(entry.name)} fails its CRC check`);
  }

  private corrupt(detail: string): AppError {
    return corrupt(this.options, detail);
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
