import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TileCache } from '../../lib/render/tileCache.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-tile-cache-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let dirs = 0;
const freshDir = () => path.join(root, `cache-${(dirs += 1)}`);

/** Every file under dir (recursively). */
const filesIn = (dir: string): string[] =>
  fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));

/** A clock the test moves: eviction order and ages do not depend on the file system's timestamps. */
function clock(start = Date.UTC(2025, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const body = (fill: number, size = 1000) => Buffer.alloc(size, fill);
const OWNER = { accountId: 7, key: 'owner-key-0123456789' };

describe('TileCache', () => {
  it('stores and reads tiles, keyed by basemap, owner and tile', async () => {
    const cache = new TileCache({ dir: freshDir(), maxBytes: 1e6 });
    expect(await cache.get('here-explore', OWNER, { z: 1, x: 0, y: 1 })).toBeUndefined();
    await cache.put('here-explore', OWNER, { z: 1, x: 0, y: 1 }, body(1));
    expect(await cache.get('here-explore', OWNER, { z: 1, x: 0, y: 1 })).toEqual(body(1));
    expect(await cache.get('here-explore', OWNER, { z: 1, x: 1, y: 0 })).toBeUndefined();
    expect(await cache.get('mapbox-streets', OWNER, { z: 1, x: 0, y: 1 })).toBeUndefined();
    expect(path.basename(cache.fileOf('here-explore', OWNER, { z: 1, x: 0, y: 1 }))).toMatch(/^[0-9a-f]{64}\.tile$/);
  });

  it("keeps each owner's copies apart: another account, or the same account with another key, misses", async () => {
    const cache = new TileCache({ dir: freshDir(), maxBytes: 1e6 });
    const tile = { z: 5, x: 3, y: 4 };
    await cache.put('mapbox-streets', OWNER, tile, body(3));
    expect(await cache.get('mapbox-streets', OWNER, tile)).toEqual(body(3));
    expect(await cache.get('mapbox-streets', { ...OWNER, accountId: 8 }, tile)).toBeUndefined();
    expect(await cache.get('mapbox-streets', { ...OWNER, key: 'bogus-key' }, tile)).toBeUndefined();
    await cache.put('mapbox-streets', { accountId: 8, key: OWNER.key }, tile, body(4));
    expect(await cache.get('mapbox-streets', OWNER, tile)).toEqual(body(3));
    expect(await cache.get('mapbox-streets', { accountId: 8, key: OWNER.key }, tile)).toEqual(body(4));
  });

  it('evicts the least recently used files down to 90% of the cap', async () => {
    const time = clock();
    const dir = freshDir();
    const cache = new TileCache({ dir, maxBytes: 10_000, now: time.now });
    for (let x = 0; x < 9; x += 1) {
      await cache.put('b', OWNER, { z: 4, x, y: 0 }, body(x));
      time.advance(1000);
    }
    expect(await cache.get('b', OWNER, { z: 4, x: 0, y: 0 })).toEqual(body(0)); // used again: now the freshest
    time.advance(1000);
    await cache.put('b', OWNER, { z: 4, x: 9, y: 0 }, body(9)); // 10 files of ~1 kB: over the cap
    expect(await cache.sizeBytes()).toBeLessThanOrEqual(9000);
    const kept = [];
    for (let x = 0; x < 10; x += 1) if (await cache.get('b', OWNER, { z: 4, x, y: 0 })) kept.push(x);
    expect(kept).toEqual([0, 3, 4, 5, 6, 7, 8, 9]); // 1 and 2 were the least recently used
    const onDisk = filesIn(dir).reduce((sum, file) => sum + fs.statSync(file).size, 0);
    expect(onDisk).toBe(await cache.sizeBytes());
  });

  it('counts the files already on disk after a restart', async () => {
    const dir = freshDir();
    const first = new TileCache({ dir, maxBytes: 1e6 });
    await first.put('b', OWNER, { z: 0, x: 0, y: 0 }, body(7, 5000));
    await first.put('b', OWNER, { z: 1, x: 0, y: 0 }, body(8, 5000));
    const second = new TileCache({ dir, maxBytes: 1e6 });
    expect(await second.sizeBytes()).toBe(await first.sizeBytes());
    expect(await second.sizeBytes()).toBeGreaterThan(10_000);
    expect(await second.get('b', OWNER, { z: 0, x: 0, y: 0 })).toEqual(body(7, 5000));
  });

  it('never serves a truncated, damaged or foreign file, and removes it', async () => {
    const cache = new TileCache({ dir: freshDir(), maxBytes: 1e6 });
    const tiles = [0, 1, 2, 3].map((x) => ({ z: 2, x, y: 0 }));
    for (const tile of tiles) await cache.put('b', OWNER, tile, body(5, 3000));
    const [truncated, flipped, empty, foreign] = tiles.map((tile) => cache.fileOf('b', OWNER, tile));
    fs.truncateSync(truncated!, 2000);
    const bytes = fs.readFileSync(flipped!);
    bytes[bytes.length - 1]! ^= 0xff;
    fs.writeFileSync(flipped!, bytes);
    fs.writeFileSync(empty!, '');
    fs.writeFileSync(foreign!, Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n'), body(1, 100)]));
    for (const tile of tiles) expect(await cache.get('b', OWNER, tile)).toBeUndefined();
    for (const file of [truncated, flipped, empty, foreign]) expect(fs.existsSync(file!)).toBe(false);
  });

  it('treats tiles older than the maximum age as misses and refreshes them on put', async () => {
    const time = clock();
    const cache = new TileCache({ dir: freshDir(), maxBytes: 1e6, now: time.now });
    await cache.put('b', OWNER, { z: 3, x: 1, y: 1 }, body(1));
    time.advance(6 * 24 * 3600_000);
    expect(await cache.get('b', OWNER, { z: 3, x: 1, y: 1 })).toEqual(body(1)); // being used does not make it younger
    time.advance(2 * 24 * 3600_000);
    expect(await cache.get('b', OWNER, { z: 3, x: 1, y: 1 })).toBeUndefined();
    await cache.put('b', OWNER, { z: 3, x: 1, y: 1 }, body(2));
    expect(await cache.get('b', OWNER, { z: 3, x: 1, y: 1 })).toEqual(body(2));
  });

  it('is shared safely by two caches on one directory writing the same tiles at once', async () => {
    const dir = freshDir();
    const a = new TileCache({ dir, maxBytes: 50_000 });
    const b = new TileCache({ dir, maxBytes: 50_000 });
    const writes = [];
    for (let x = 0; x < 40; x += 1) {
      writes.push(a.put('b', OWNER, { z: 6, x, y: 0 }, body(x, 2000)), b.put('b', OWNER, { z: 6, x, y: 0 }, body(x, 2000)));
    }
    await Promise.all(writes);
    for (let x = 0; x < 40; x += 1) {
      const read = await b.get('b', OWNER, { z: 6, x, y: 0 });
      if (read) expect(read).toEqual(body(x, 2000)); // evicted is fine; wrong bytes are not
    }
    expect(filesIn(dir).filter((file) => file.endsWith('.tmp'))).toEqual([]);
    // Each process counts its own writes, so the cap is soft across processes until the next
    // eviction rescans the directory.
    await a.evict();
    const onDisk = filesIn(dir).reduce((sum, file) => sum + fs.statSync(file).size, 0);
    expect(onDisk).toBeLessThanOrEqual(45_000);
  });

  it('removes temporary files left by a stopped process, once they are old', async () => {
    const time = clock();
    const dir = freshDir();
    const cache = new TileCache({ dir, maxBytes: 1e6, now: time.now });
    const leftover = `${cache.fileOf('b', OWNER, { z: 0, x: 0, y: 0 })}.00000000-0000-4000-8000-000000000000.tmp`;
    fs.mkdirSync(path.dirname(leftover), { recursive: true });
    fs.writeFileSync(leftover, 'half a tile');
    fs.utimesSync(leftover, new Date(time.now() - 2 * 3600_000), new Date(time.now() - 2 * 3600_000));
    expect(await cache.sizeBytes()).toBe(0);
    expect(fs.existsSync(leftover)).toBe(false);
  });
});
