// KMZ: a zip archive with a KML document and the files it refers to. Read with our own
// central-directory reader and Node's zlib, so every limit is ours:
// - at most MAX_ENTRIES entries; directory entries are ignored;
// - entries are inflated only when needed (the main KML, then icons and images it names),
//   each with zlib's maxOutputLength set to what is left of the inflated-bytes budget and to
//   the entry's compressed size × MAX_RATIO: a lying declared size cannot get past it;
// - icons and images are held in memory, so they have a budget of their own (maxMediaTotalBytes);
// - encrypted entries, ZIP64 and multi-disk archives are refused; sizes and CRC-32 are checked;
// - entry names are only ever compared with names from the KML, never used as file paths;
//   names that climb out of the archive (`../x`, `/x`, `C:x`) are ignored; nested archives are
//   never opened.
// The main KML is doc.kml at the top level, else the first .kml at the top level, else the
// first .kml anywhere.
import { AppError } from '../errors.js';
import { crc32, inflateRawSync } from 'node:zlib';
import { mediaPlaceholder, type ExtractedMedia, type ParsedFile } from './types.js';
import { decodeXmlBytes } from './xml/decode.js';
import { convertKml, type KmlMediaResolver } from './xml/kmlConverter.js';
import { shorten } from './xml/shorten.js';
import { isGif, isJpeg, isPng } from './xml/sniff.js';

export const KMZ_LIMITS = {
  /** Most entries (files and folders) an archive may list. */
  maxEntries: 10_000,
  /** Most bytes all inflated entries together may make. */
  maxInflatedBytes: 200 * 1024 * 1024,
  /** Highest inflated : compressed ratio of an entry (beyond the allowance below). */
  maxRatio: 200,
  /** Every entry may inflate to this many bytes whatever its ratio. */
  ratioAllowance: 1024 * 1024,
  /** Icons and images larger than this (as declared) are left in the archive, like any upload over 15 MB. */
  maxMediaBytes: 15 * 1024 * 1024,
  /** Most bytes all extracted icons and images together may have (they are held in memory). */
  maxMediaTotalBytes: 50 * 1024 * 1024,
} as const;

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const corrupt = (detail: string) =>
  new AppError('invalid_archive', `the KMZ file is not a readable zip archive: ${detail}`);

const quoteName = (name: string): string => JSON.stringify(shorten(name, 60));

/** Entry names that point outside the archive if used as a path, or cannot be names at all. */
function isUnsafeName(name: string): boolean {
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\u0000')) return true;
  return name.split('/').includes('..');
}

class ZipArchive {
  /** Safe file entries by name (a Map: names like `__proto__` are plain keys). */
  readonly files = new Map<string, ZipEntry>();
  /** Safe file entries in archive order. */
  readonly order: ZipEntry[] = [];
  private inflated = 0;

  constructor(private readonly bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const eocd = this.findEndOfCentralDirectory(view);
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
      throw new AppError('invalid_archive', 'the KMZ file is a ZIP64 archive, which is not supported');
    }
    if (disk !== 0 || directoryDisk !== 0) {
      throw new AppError('invalid_archive', 'the KMZ file is a multi-part (spanned) zip archive, which is not supported');
    }
    if (count > KMZ_LIMITS.maxEntries) {
      throw new AppError('archive_too_large', `the KMZ archive has ${count} entries; at most ${KMZ_LIMITS.maxEntries} are allowed`);
    }
    if (directoryOffset + directorySize > eocd) throw corrupt('the central directory lies outside the file (truncated?)');

    const decoder = new TextDecoder('utf-8');
    let at = directoryOffset;
    for (let index = 0; index < count; index++) {
      if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw corrupt('the central directory is damaged');
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
      if (next > eocd) throw corrupt('the central directory is damaged');
      const rawName = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
      at = next;

      // Bit 0: encrypted; bit 6: strong encryption; method 99: AES.
      if ((flags & 0x41) !== 0 || method === 99) {
        throw new AppError('invalid_archive', `the KMZ archive has an encrypted entry (${quoteName(rawName)}); encrypted archives are not supported`);
      }
      if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) {
        throw new AppError('invalid_archive', 'the KMZ file is a ZIP64 archive, which is not supported');
      }
      const name = rawName.replaceAll('\\', '/');
      if (name === '' || name.endsWith('/')) continue; // a directory
      if (isUnsafeName(name)) continue;
      const entry: ZipEntry = { name, flags, method, crc, compressedSize, size, localOffset };
      if (!this.files.has(name)) {
        this.files.set(name, entry);
        this.order.push(entry);
      }
    }
  }

  private findEndOfCentralDirectory(view: DataView): number {
    const length = view.byteLength;
    const lowest = Math.max(0, length - 22 - 0xffff);
    for (let at = length - 22; at >= lowest; at--) {
      if (view.getUint32(at, true) === EOCD_SIGNATURE && at + 22 + view.getUint16(at + 20, true) <= length) return at;
    }
    throw corrupt('its end record is missing (the file is truncated or damaged)');
  }

  /** The entry's content, inflated within the limits. */
  read(entry: ZipEntry): Uint8Array {
    const bytes = this.bytes;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = entry.localOffset;
    if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) {
      throw corrupt(`the entry ${quoteName(entry.name)} is missing or damaged`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > bytes.length) throw corrupt(`the entry ${quoteName(entry.name)} is truncated`);
    const compressed = bytes.subarray(start, end);

    const left = KMZ_LIMITS.maxInflatedBytes - this.inflated;
    const ratioLimit = Math.max(KMZ_LIMITS.ratioAllowance, entry.compressedSize * KMZ_LIMITS.maxRatio);
    const budgetError = () =>
      new AppError('archive_too_large', `the KMZ archive inflates to more than ${KMZ_LIMITS.maxInflatedBytes / (1024 * 1024)} MB`);
    const ratioError = () =>
      new AppError(
        'archive_too_large',
        `the KMZ entry ${quoteName(entry.name)} inflates to more than ${KMZ_LIMITS.maxRatio} times its compressed size; the archive looks like a zip bomb`,
      );
    if (entry.size > left) throw budgetError();
    if (entry.size > ratioLimit) throw ratioError();

    let content: Uint8Array;
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) throw corrupt(`the stored entry ${quoteName(entry.name)} has inconsistent sizes`);
      content = compressed.slice();
    } else if (entry.method === 8) {
      // One byte more than declared is enough to see a lying size; the budget and the ratio
      // bound it anyway.
      const limit = Math.min(left, ratioLimit, entry.size + 1);
      try {
        content = inflateRawSync(compressed, { maxOutputLength: Math.max(1, limit) });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          if (limit === entry.size + 1) {
            throw new AppError(
              'archive_too_large',
              `the KMZ entry ${quoteName(entry.name)} inflates to more than the size it declares; the archive looks like a zip bomb`,
            );
          }
          throw limit === left ? budgetError() : ratioError();
        }
        throw corrupt(`the entry ${quoteName(entry.name)} cannot be inflated (${(error as Error).message})`);
      }
    } else {
      throw new AppError(
        'invalid_archive',
        `the KMZ entry ${quoteName(entry.name)} uses zip compression method ${entry.method}; only stored and deflated entries are supported`,
      );
    }
    this.inflated += content.length;
    if (content.length !== entry.size) throw corrupt(`the entry ${quoteName(entry.name)} is not the size the archive declares`);
    if (crc32(content) !== entry.crc) throw corrupt(`the entry ${quoteName(entry.name)} fails its CRC check`);
    return content;
  }
}

const isTopLevel = (name: string): boolean => !name.includes('/');
const isKml = (name: string): boolean => name.toLowerCase().endsWith('.kml');

function mainKml(archive: ZipArchive): ZipEntry | undefined {
  const kmls = archive.order.filter((entry) => isKml(entry.name));
  return (
    kmls.find((entry) => entry.name.toLowerCase() === 'doc.kml') ??
    kmls.find((entry) => isTopLevel(entry.name)) ??
    kmls[0]
  );
}

/** A reference from the KML (relative to the KML's folder, or absolute from the archive root) → an archive name; undefined for URLs and names outside the archive. */
export function resolveArchivePath(reference: string, baseFolder: string): string | undefined {
  let path = reference.trim();
  if (path === '' || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(path) || path.startsWith('//')) return undefined; // a URL (http:, file:, data:, …) or a drive
  const cut = path.search(/[?#]/);
  if (cut !== -1) path = path.slice(0, cut);
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path);
    } catch {
      // keep it as written
    }
  }
  path = path.replaceAll('\\', '/');
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

/** Collects icons and images the KML names that live in the archive (each file once per kind). */
class ArchiveMedia implements KmlMediaResolver {
  readonly media: ExtractedMedia[] = [];
  private readonly indexByKey = new Map<string, number | null>();
  private readonly contents = new Map<string, Uint8Array | null>();
  private lowerCaseNames: Map<string, ZipEntry> | undefined;
  private mediaBytes = 0;

  constructor(
    private readonly archive: ZipArchive,
    private readonly baseFolder: string,
  ) {}

  marker(href: string): string | undefined {
    return this.find('marker', href);
  }

  image(src: string): string | undefined {
    return this.find('image', src);
  }

  private entry(name: string): ZipEntry | undefined {
    const exact = this.archive.files.get(name);
    if (exact !== undefined) return exact;
    if (this.lowerCaseNames === undefined) {
      this.lowerCaseNames = new Map();
      for (const entry of this.archive.order) {
        const key = entry.name.toLowerCase();
        if (!this.lowerCaseNames.has(key)) this.lowerCaseNames.set(key, entry);
      }
    }
    return this.lowerCaseNames.get(name.toLowerCase());
  }

  /** The entry's bytes when it is a PNG, JPEG or GIF image; null otherwise. */
  private imageBytes(entry: ZipEntry): Uint8Array | null {
    const known = this.contents.get(entry.name);
    if (known !== undefined) return known;
    let bytes: Uint8Array | null = null;
    const lower = entry.name.toLowerCase();
    const isArchiveOrKml = lower.endsWith('.kml') || lower.endsWith('.kmz') || lower.endsWith('.zip');
    if (!isArchiveOrKml && entry.size <= KMZ_LIMITS.maxMediaBytes) {
      if (this.mediaBytes + entry.size > KMZ_LIMITS.maxMediaTotalBytes) {
        throw new AppError(
          'archive_too_large',
          `the icons and images the KML uses make more than ${KMZ_LIMITS.maxMediaTotalBytes / (1024 * 1024)} MB once inflated`,
        );
      }
      const content = this.archive.read(entry);
      if (isPng(content) || isJpeg(content) || isGif(content)) {
        bytes = content;
        this.mediaBytes += content.length;
      }
    }
    this.contents.set(entry.name, bytes);
    return bytes;
  }

  private find(kind: ExtractedMedia['kind'], reference: string): string | undefined {
    const name = resolveArchivePath(reference, this.baseFolder);
    if (name === undefined) return undefined;
    const entry = this.entry(name);
    if (entry === undefined) return undefined;
    const key = `${kind}\u0000${entry.name}`;
    const known = this.indexByKey.get(key);
    if (known !== undefined) return known === null ? undefined : mediaPlaceholder(known);
    const bytes = this.imageBytes(entry);
    if (bytes === null) {
      this.indexByKey.set(key, null);
      return undefined;
    }
    const index = this.media.length;
    this.media.push({ kind, name: entry.name, bytes });
    this.indexByKey.set(key, index);
    return mediaPlaceholder(index);
  }
}

/**
 * Parses a KMZ archive. Throws AppError: invalid_archive, archive_too_large,
 * no_kml_in_archive, and the KML errors (invalid_file, doctype_not_allowed, too_deep,
 * no_features, too_many_features).
 */
export function parseKmz(bytes: Uint8Array): ParsedFile {
  const archive = new ZipArchive(bytes);
  const main = mainKml(archive);
  if (main === undefined) {
    const names = archive.order.slice(0, 5).map((entry) => quoteName(entry.name));
    const holds =
      names.length === 0
        ? 'it holds no files'
        : `it holds ${names.join(', ')}${archive.order.length > names.length ? ` and ${archive.order.length - names.length} more` : ''}`;
    throw new AppError('no_kml_in_archive', `the KMZ archive holds no .kml file (${holds})`);
  }
  const text = decodeXmlBytes(archive.read(main), 'KML file');
  const slash = main.name.lastIndexOf('/');
  const media = new ArchiveMedia(archive, slash === -1 ? '' : main.name.slice(0, slash));
  const { document, skipped } = convertKml(text, media);
  return { document, skipped, media: media.media };
}
