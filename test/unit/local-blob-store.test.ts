import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../../lib/blobs/localBlobStore.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-blobs-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('LocalBlobStore scratch files', () => {
  it('hands out scratch files, stores them under a key, and reads them back in ranges', async () => {
    const store = new LocalBlobStore(root);
    const file = await store.scratchFile();
    fs.writeFileSync(file, 'head\nbody');
    const { key, size } = await store.adoptFile('parsed', file);
    expect(size).toBe(9);
    expect(fs.existsSync(file)).toBe(false);
    const chunks: Buffer[] = [];
    for await (const chunk of store.readStream(key, { start: 5, end: 8 })) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('body');
    expect(await store.localFile(key)).toBe(path.join(root, key));
  });

  it('adopts and discards only its own scratch files', async () => {
    const store = new LocalBlobStore(root);
    const outside = path.join(root, 'elsewhere.partial');
    fs.writeFileSync(outside, 'x');
    await expect(store.adoptFile('parsed', outside)).rejects.toThrow(/not a scratch file/);
    await store.discardFile(outside);
    expect(fs.existsSync(outside)).toBe(true);
  });

  it('removes scratch files a stopped process left behind, once, and keeps fresh ones', async () => {
    const dir = path.join(root, 'scratch');
    fs.mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, 'left-behind.partial');
    const fresh = path.join(dir, 'in-use.partial');
    fs.writeFileSync(stale, 'x');
    fs.writeFileSync(fresh, 'y');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    await new LocalBlobStore(root).scratchFile();
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
  });
});
