// One PMTiles archive of OpenStreetMap vector tiles, read by byte ranges (never loaded whole) with
// the `pmtiles` package: its header and directories are cached by the package's
// ResolvedValueCache (a bounded number of directories; a failed read is not kept, unlike its
// SharedPromiseCache, which would keep a rejected promise and fail that directory for good), and
// the tiles read last by RecentTiles, up to BASEMAP_TILE_CACHE_MB.
//
// Tiles are handed back as stored: `PMTiles.getZxy` passes tile bytes through the decompress
// function it was made with (index.ts of the package: `this.decompress(resp.data,
// header.tileCompression)`), and ours returns them unchanged, so gzip tiles reach a browser that
// accepts gzip without being inflated and deflated again. Directories and metadata are inflated
// (node:zlib). decodedTile inflates a tile for whoever draws it (the static renderer).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Compression, PMTiles, ResolvedValueCache, bytesToHeader, zxyToTileId, type Source } from 'pmtiles';
import { RecentTiles } from './recentTiles.js';
import { schemaProblem, vectorLayersOf, type VectorLayer } from './schema.js';
import { ArchiveProblem, type ClosableSource } from './sources.js';
import { boundsFromTiles, hasNoBounds, type Bounds } from './tileBounds.js';

export { ArchiveProblem } from './sources.js';

const gunzip = promisify(zlib.gunzip);

/** The header and the root directory: PMTiles v3 puts both in the first 16 kB. */
const HEAD_BYTES = 16_384;
const HEADER_BYTES = 127;
/** Directories kept (a planet's leaf directories are up to a few hundred kB each once read). */
const DIRECTORIES_KEPT = 64;

/** What the style and the renderer need to know of the archive. */
export interface StreetArchiveInfo {
  /**
   * Names this archive's content (16 hex digits of a SHA-256 of its header, root directory and
   * metadata): the same archive read from a file, S3 or a URL has the same identity, and another
   * archive another one. Tile URLs and ETags carry it.
   */
  identity: string;
  /** The archive's zooms; tiles past maxZoom are drawn over-zoomed from maxZoom's. */
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north]: the header's, or the extent of the tiles when the header has none. */
  bounds: Bounds;
  boundsFrom: 'header' | 'tiles';
  /** How tiles are stored: 'gzip' tiles are served as they are to clients that accept gzip. */
  tileCompression: 'gzip' | 'none';
  vectorLayers: VectorLayer[];
  /** The metadata's attribution, when it has one (HTML as the archive's maker wrote it). */
  attribution: string | undefined;
}

/** A tile as stored, an empty place inside the archive's zooms, or an address outside them. */
export type StoredTile = { status: 'tile'; bytes: Uint8Array } | { status: 'empty' } | { status: 'outside' };

/** How directories and metadata are stored (tiles are passed through: see the top). */
async function inflate(bytes: ArrayBuffer, compression: Compression): Promise<ArrayBuffer> {
  if (compression === Compression.None) return bytes;
  if (compression !== Compression.Gzip) throw new ArchiveProblem(`its directories are compressed with a method the service does not read (${compression}; gzip or none)`);
  const inflated = await gunzip(new Uint8Array(bytes));
  return inflated.buffer.slice(inflated.byteOffset, inflated.byteOffset + inflated.byteLength) as ArrayBuffer;
}

const asStored = async (bytes: ArrayBuffer): Promise<ArrayBuffer> => bytes;

/** Reads past the archive's start must get every byte asked for: fewer means the file ends early. */
class WholeReads implements Source {
  constructor(private readonly source: Source) {}
  getKey = () => this.source.getKey();
  async getBytes(offset: number, length: number, signal?: AbortSignal) {
    const answer = await this.source.getBytes(offset, length, signal);
    if (offset > 0 && answer.data.byteLength < length) {
      throw new ArchiveProblem(`is truncated: bytes ${offset}–${offset + length - 1} are past its end`);
    }
    return answer;
  }
}

export class StreetArchive {
  private readonly recent: RecentTiles;
  private readonly reading = new Map<number, Promise<Uint8Array | undefined>>();

  private constructor(
    readonly info: StreetArchiveInfo,
    private readonly tiles: PMTiles,
    private readonly source: ClosableSource,
    cacheBytes: number,
  ) {
    this.recent = new RecentTiles(cacheBytes);
  }

  /**
   * Reads and checks the archive: a PMTiles v3 archive of vector tiles in the OpenMapTiles schema,
   * whole (its tile data ends where its header says). Throws ArchiveProblem saying what is wrong.
   */
  static async open(source: ClosableSource, options: { cacheBytes: number }): Promise<StreetArchive> {
    try {
      const reader = new WholeReads(source);
      const head = new Uint8Array((await source.getBytes(0, HEAD_BYTES)).data);
      if (head.byteLength < HEADER_BYTES || Buffer.from(head.subarray(0, 7)).toString('latin1') !== 'PMTiles') {
        throw new ArchiveProblem('is not a PMTiles archive (it does not start with the PMTiles signature)');
      }
      if (head[7] !== 3) throw new ArchiveProblem(`is a PMTiles archive of version ${head[7]}; the service reads version 3 (convert it with pmtiles convert)`);
      const header = bytesToHeader(head.slice(0, HEADER_BYTES).buffer);
      if (header.rootDirectoryOffset + header.rootDirectoryLength > head.byteLength) throw new ArchiveProblem('is truncated: it ends inside its root directory');
      const metadataBytes = new Uint8Array((await reader.getBytes(header.jsonMetadataOffset, header.jsonMetadataLength)).data);
      let metadata: unknown;
      try {
        metadata = JSON.parse(Buffer.from(await inflate(metadataBytes.slice().buffer, header.internalCompression)).toString('utf8'));
      } catch (error) {
        throw error instanceof ArchiveProblem ? error : new ArchiveProblem(`its metadata cannot be read (${(error as Error).message})`);
      }
      const vectorLayers = vectorLayersOf(metadata);
      const problem = schemaProblem(header.tileType, header.tileCompression, vectorLayers);
      if (problem) throw new ArchiveProblem(problem);
      if (header.numTileContents === 0 || !header.tileDataLength) throw new ArchiveProblem('holds no tiles');
      // The last byte of tile data: an archive cut short (an interrupted copy) fails here, not at some tile later.
      await reader.getBytes(header.tileDataOffset + header.tileDataLength - 1, 1);

      const cache = new ResolvedValueCache(DIRECTORIES_KEPT, true, inflate);
      try {
        await cache.getDirectory(reader, header.rootDirectoryOffset, header.rootDirectoryLength, header);
      } catch (error) {
        throw error instanceof ArchiveProblem ? error : new ArchiveProblem(`its root directory cannot be read (${(error as Error).message})`);
      }
      const noBounds = hasNoBounds(header);
      const bounds: Bounds = noBounds
        ? await boundsFromTiles(reader, cache, header).catch((error: Error) => {
            throw error instanceof ArchiveProblem ? error : new ArchiveProblem(`its directories cannot be read (${error.message})`);
          })
        : [header.minLon, header.minLat, header.maxLon, header.maxLat];
      const identity = createHash('sha256')
        .update(head.subarray(0, HEADER_BYTES))
        .update(head.subarray(header.rootDirectoryOffset, header.rootDirectoryOffset + header.rootDirectoryLength))
        .update(metadataBytes)
        .digest('hex')
        .slice(0, 16);
      const info: StreetArchiveInfo = {
        identity,
        minZoom: header.minZoom,
        maxZoom: header.maxZoom,
        bounds,
        boundsFrom: noBounds ? 'tiles' : 'header',
        tileCompression: header.tileCompression === Compression.Gzip ? 'gzip' : 'none',
        vectorLayers: vectorLayers!,
        attribution: typeof (metadata as { attribution?: unknown }).attribution === 'string' ? (metadata as { attribution: string }).attribution : undefined,
      };
      return new StreetArchive(info, new PMTiles(reader, cache, asStored), source, options.cacheBytes);
    } catch (error) {
      await source.close().catch(() => {});
      throw error;
    }
  }

  /** The tile URL template for MapLibre styles: `{publicUrl}/basemaps/osm/<identity>/{z}/{x}/{y}.mvt`. */
  tileUrlTemplate(publicUrl: string): string {
    return `${publicUrl}${streetTilePathPrefix(this.info.identity)}/{z}/{x}/{y}.mvt`;
  }

  /** Within zoom 0–maxZoom and the zoom's grid. */
  covers(z: number, x: number, y: number): boolean {
    return Number.isInteger(z) && Number.isInteger(x) && Number.isInteger(y) && z >= 0 && z <= this.info.maxZoom && x >= 0 && y >= 0 && x < 2 ** z && y < 2 ** z;
  }

  /** The tile as stored (compressed as info.tileCompression says). Throws ArchiveProblem or the storage's error when the archive cannot be read. */
  async storedTile(z: number, x: number, y: number): Promise<StoredTile> {
    if (!this.covers(z, x, y)) return { status: 'outside' };
    const id = zxyToTileId(z, x, y);
    const kept = this.recent.get(id);
    if (kept) return { status: 'tile', bytes: kept };
    let read = this.reading.get(id);
    if (!read) {
      // One read per tile at a time: the clients asking for it at once share it.
      read = this.tiles.getZxy(z, x, y).then((answer) => (answer && answer.data.byteLength > 0 ? new Uint8Array(answer.data) : undefined));
      this.reading.set(id, read);
      read.then(
        (bytes) => {
          if (bytes) this.recent.set(id, bytes);
        },
        () => {},
      ).finally(() => this.reading.delete(id));
    }
    const bytes = await read;
    return bytes ? { status: 'tile', bytes } : { status: 'empty' };
  }

  /** The tile's Mapbox vector tile bytes, inflated (for @mapbox/vector-tile); undefined for an empty place or an address outside the archive's zooms. */
  async decodedTile(z: number, x: number, y: number): Promise<Uint8Array | undefined> {
    const tile = await this.storedTile(z, x, y);
    if (tile.status !== 'tile') return undefined;
    return this.info.tileCompression === 'gzip' ? await gunzip(tile.bytes) : tile.bytes;
  }

  /** Tiles kept in memory now: their count and bytes (overhead included). */
  get cached(): { tiles: number; bytes: number } {
    return { tiles: this.recent.count, bytes: this.recent.size };
  }

  close(): Promise<void> {
    return this.source.close();
  }
}

/** Where the service serves an archive's tiles: `/basemaps/osm/<identity>` + `/{z}/{x}/{y}.mvt`. */
export const streetTilePathPrefix = (identity: string): string => `/basemaps/osm/${identity}`;
