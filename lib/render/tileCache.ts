// An on-disk cache of commercial basemap tiles, shared by the render workers of one machine.
//
// - Kept per owner (issue 24): a tile fetched for one account with one provider key is served
//   only to the same account with the same key, so a map whose owner has no working key never
//   gets paid tiles another account fetched, and no account can tell from the cache's speed
//   which tiles another fetched (static images of private maps included). A file is named by a
//   SHA-256 of (basemap id, account, key, z, x, y), never by the tile URL: the key, which the URL
//   holds, never reaches the disk in a name, a header or a body. Tiles cached before this rule
//   had other names; nothing reads them again and eviction removes them first (oldest).
// - Each file is a header (magic, fetch time, body length, body SHA-256) and the body, written
//   to a temporary name and renamed into place. A reader opens one inode and sees a whole file or
//   none; the checksum also catches files torn by a crash (no fsync: a lost tile is a refetch).
// - Two processes may share the directory: a race costs at most a miss (both write, one rename
//   wins; an eviction removes a file another process just read, which it already holds).
// - A size cap: the total is tracked in memory (scanned from the directory on first use, so it
//   survives restarts) and when it passes the cap the least recently used files (mtime, touched on
//   every hit) are removed down to 90% of the cap. The rescan at eviction time also corrects what
//   other processes added meanwhile.
// - A maximum age (default 7 days, measured from the fetch, not from the last use): providers'
//   terms limit how long tiles may be kept, and an expired tile is refetched.
import { createHash, randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TileCoord } from './tileGrid.js';

const MAGIC = Buffer.from('MPSTILE1', 'latin1');
const HEADER_BYTES = MAGIC.length + 8 + 4 + 32; // magic, fetched-at (float64 ms), body length, SHA-256
const FILE_PATTERN = /^[0-9a-f]{64}\.tile$/;
const TEMP_PATTERN = /^[0-9a-f]{64}\.tile\.[0-9a-f-]{36}\.tmp$/;
/** A temporary file this old was left by a stopped process (a live write takes milliseconds). */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** Files larger than this are not tiles we wrote; not read into memory. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Clock differences between processes sharing the directory that still count as "now". */
const CLOCK_SKEW_MS = 60 * 1000;

export const DEFAULT_TILE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface TileCacheOptions {
  dir: string;
  /** The cap on the bytes of all files (config.tileCacheMaxBytes). */
  maxBytes: number;
  /** Tiles fetched longer ago than this are misses (default 7 days). */
  maxAgeMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** Whose copy of a tile: the account it is fetched for and the provider key it is fetched with. */
export interface TileOwner {
  accountId: number;
  key: string;
}

interface CachedFile {
  file: string;
  size: number;
  mtimeMs: number;
}

export class TileCache {
  readonly dir: string;
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private total: Promise<number> | undefined;
  private totalBytes = 0;
  private eviction: Promise<void> | undefined;

  constructor(options: TileCacheOptions) {
    this.dir = path.resolve(options.dir);
    this.maxBytes = options.maxBytes;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_TILE_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
  }

  /** The file of an owner's tile: two hex characters of fan-out keep each directory small. */
  fileOf(basemapId: string, owner: TileOwner, tile: TileCoord): string {
    const hash = createHash('sha256').update(`${basemapId}\n${owner.accountId}\n${owner.key}\n${tile.z}/${tile.x}/${tile.y}`).digest('hex');
    return path.join(this.dir, hash.slice(0, 2), `${hash}.tile`);
  }

  /** The owner's copy of the tile, or undefined when it is not cached, expired, or its file is damaged. */
  async get(basemapId: string, owner: TileOwner, tile: TileCoord): Promise<Buffer | undefined> {
    const file = this.fileOf(basemapId, owner, tile);
    const read = await readTileFile(file);
    if (read === undefined) return undefined;
    const decoded = decodeTile(read);
    if (decoded === undefined) {
      await this.remove(file, read.length); // damaged: never served, and its space is freed
      return undefined;
    }
    const age = this.now() - decoded.fetchedAt;
    if (age > this.maxAgeMs || age < -CLOCK_SKEW_MS) return undefined; // put() will replace it
    await touch(file, this.now()); // recently used: the last to be evicted
    return decoded.body;
  }

  /** Stores the owner's copy of a tile (replacing an older one) and evicts when over the cap. */
  async put(basemapId: string, owner: TileOwner, tile: TileCoord, body: Uint8Array): Promise<void> {
    await this.sizeBytes(); // the first use scans the directory
    const file = this.fileOf(basemapId, owner, tile);
    const bytes = encodeTile(body, this.now());
    const temp = `${file}.${randomUUID()}.tmp`;
    await fsp.mkdir(path.dirname(file), { recursive: true });
    try {
      await fsp.writeFile(temp, bytes);
      await touch(temp, this.now());
      const replaced = await fsp.stat(file).catch(() => undefined);
      await fsp.rename(temp, file);
      this.totalBytes += bytes.length - (replaced?.size ?? 0);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    if (this.totalBytes > this.maxBytes) await this.evict();
  }

  /** The bytes of all cached files as this process counts them (scanned on first use). */
  async sizeBytes(): Promise<number> {
    this.total ??= this.scan().then((files) => {
      this.totalBytes = files.reduce((sum, entry) => sum + entry.size, 0);
      return this.totalBytes;
    });
    await this.total;
    return this.totalBytes;
  }

  /** Removes least recently used files down to 90% of the cap; one eviction at a time per process. */
  evict(): Promise<void> {
    this.eviction ??= this.evictNow().finally(() => {
      this.eviction = undefined;
    });
    return this.eviction;
  }

  private async evictNow(): Promise<void> {
    // A fresh scan: other processes sharing the directory wrote and evicted too.
    const files = await this.scan();
    let total = files.reduce((sum, entry) => sum + entry.size, 0);
    const target = Math.floor(this.maxBytes * 0.9);
    files.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const entry of files) {
      if (total <= target) break;
      await fsp.rm(entry.file, { force: true });
      total -= entry.size;
    }
    this.totalBytes = total;
  }

  private async remove(file: string, size: number): Promise<void> {
    await fsp.rm(file, { force: true });
    this.totalBytes = Math.max(0, this.totalBytes - size);
  }

  /** Every tile file with its size and mtime; removes temporary files left by stopped processes. */
  private async scan(): Promise<CachedFile[]> {
    await fsp.mkdir(this.dir, { recursive: true });
    const found: CachedFile[] = [];
    for (const fanout of await fsp.readdir(this.dir)) {
      if (!/^[0-9a-f]{2}$/.test(fanout)) continue;
      const sub = path.join(this.dir, fanout);
      const names = await fsp.readdir(sub).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(sub, name);
        const stat = await fsp.stat(file).catch(() => undefined); // gone meanwhile: another process evicted it
        if (stat === undefined || !stat.isFile()) continue;
        if (FILE_PATTERN.test(name)) found.push({ file, size: stat.size, mtimeMs: stat.mtimeMs });
        else if (TEMP_PATTERN.test(name) && this.now() - stat.mtimeMs > STALE_TEMP_MS) await fsp.rm(file, { force: true });
      }
    }
    return found;
  }
}

/** The whole file, or undefined when there is none (or it is too large to be ours). */
async function readTileFile(file: string): Promise<Buffer | undefined> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_FILE_BYTES) return Buffer.alloc(0); // decodes as damaged, so it is removed
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function encodeTile(body: Uint8Array, fetchedAt: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeDoubleBE(fetchedAt, MAGIC.length);
  header.writeUInt32BE(body.byteLength, MAGIC.length + 8);
  createHash('sha256').update(body).digest().copy(header, MAGIC.length + 12);
  return Buffer.concat([header, body]);
}

/** The body and fetch time of a file's bytes, or undefined when they are not a whole, intact tile. */
function decodeTile(bytes: Buffer): { body: Buffer; fetchedAt: number } | undefined {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const fetchedAt = bytes.readDoubleBE(MAGIC.length);
  const length = bytes.readUInt32BE(MAGIC.length + 8);
  if (!Number.isFinite(fetchedAt) || bytes.length !== HEADER_BYTES + length) return undefined;
  const body = bytes.subarray(HEADER_BYTES);
  const expected = bytes.subarray(MAGIC.length + 12, HEADER_BYTES);
  if (!createHash('sha256').update(body).digest().equals(expected)) return undefined;
  return { body, fetchedAt };
}

/** Sets atime and mtime (atime alone is unreliable: relatime and noatime mounts). */
async function touch(file: string, nowMs: number): Promise<void> {
  const time = new Date(nowMs);
  await fsp.utimes(file, time, time).catch(() => undefined); // evicted meanwhile: nothing to keep fresh
}
