// KMZ: a zip archive with a KML document and the files it refers to. Read with the imports'
// zip reader (../zip.ts, on yauzl: entry cap, inflated-bytes budget, declared sizes, CRC-32, no
// encryption or spanned archives, unsafe names and folders dropped) with the limits below:
// - entries are inflated only when needed (the main KML, then icons and images it names), each
//   bounded by what is left of the budget and by its compressed size × maxRatio;
// - icons and images are held in memory, so they have a budget of their own (maxMediaTotalBytes);
// - entry names are only ever compared with names from the KML, never used as file paths;
//   nested archives are never opened.
// The main KML is doc.kml at the top level, else the first .kml at the top level, else the
// first .kml anywhere.
import { AppError } from '../errors.js';
import { mediaPlaceholder, type ExtractedMedia, type FeatureSink, type ParsedFile } from './types.js';
import { decodeXmlChunks } from './xml/decode.js';
import { convertKml, type KmlMediaResolver } from './xml/kmlConverter.js';
import { sniffFormat } from '../media/sniff.js';
import { folderOf, joinArchivePath, quoteEntryName, ZipArchive, type ZipEntry } from './zip.js';

export const KMZ_LIMITS = {
  /** Most entries (files and folders) an archive may list. */
  maxEntries: 10_000,
  /** Most bytes all inflated entries together may make. */
  maxInflatedBytes: 200 * 1024 * 1024,
  /** Highest inflated : compressed ratio of an entry (beyond the allowance below). */
  maxRatio: 200,
  /** Every entry may inflate to this many bytes whatever its ratio. */
  ratioAllowance: 1024 * 1024,
  /**
   * The largest main KML: it is inflated whole and converted in the parser thread, which takes
   * about five times its size (a 100 MB KML took +508 MB; a 198 MB one ended the process).
   */
  maxKmlBytes: 48 * 1024 * 1024,
  /** Icons and images larger than this (as declared) are left in the archive, like any upload over 15 MB. */
  maxMediaBytes: 15 * 1024 * 1024,
  /** Most bytes all extracted icons and images together may have (they are held in memory). */
  maxMediaTotalBytes: 50 * 1024 * 1024,
} as const;

const isTopLevel = (name: string): boolean => !name.includes('/');
const isKml = (name: string): boolean => name.toLowerCase().endsWith('.kml');

function mainKml(archive: ZipArchive): ZipEntry | undefined {
  const kmls = archive.entries.filter((entry) => isKml(entry.name));
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
  return joinArchivePath(baseFolder, path.replaceAll('\\', '/'));
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
    const exact = this.archive.entry(name);
    if (exact !== undefined) return exact;
    if (this.lowerCaseNames === undefined) {
      this.lowerCaseNames = new Map();
      for (const entry of this.archive.entries) {
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
      const content = this.archive.readEntry(entry);
      if (sniffFormat(content) !== undefined) {
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
export async function parseKmz(bytes: Uint8Array, sink?: FeatureSink): Promise<ParsedFile> {
  const archive = await ZipArchive.open(bytes, {
    label: 'KMZ',
    invalidCode: 'invalid_archive',
    maxEntries: KMZ_LIMITS.maxEntries,
    maxInflatedBytes: KMZ_LIMITS.maxInflatedBytes,
    maxRatio: KMZ_LIMITS.maxRatio,
    ratioAllowance: KMZ_LIMITS.ratioAllowance,
  });
  const main = mainKml(archive);
  if (main === undefined) {
    const names = archive.entries.slice(0, 5).map((entry) => quoteEntryName(entry.name));
    const holds =
      names.length === 0
        ? 'it holds no files'
        : `it holds ${names.join(', ')}${archive.entries.length > names.length ? ` and ${archive.entries.length - names.length} more` : ''}`;
    throw new AppError('no_kml_in_archive', `the KMZ archive holds no .kml file (${holds})`);
  }
  // The declared size is checked here; a size that lies stops the inflating just past it.
  if (main.size > KMZ_LIMITS.maxKmlBytes) {
    throw new AppError(
      'archive_too_large',
      `the KMZ's KML file ${quoteEntryName(main.name)} inflates to ${Math.ceil(main.size / (1024 * 1024))} MB; at most ${KMZ_LIMITS.maxKmlBytes / (1024 * 1024)} MB are allowed`,
    );
  }
  const text = decodeXmlChunks(archive.readEntry(main), 'KML file');
  const media = new ArchiveMedia(archive, folderOf(main.name));
  const { document, skipped, name } = convertKml(text, media, sink);
  return { document, skipped, media: media.media, name };
}
