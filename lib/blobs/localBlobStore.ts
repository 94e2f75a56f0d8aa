// BlobStore on a local directory: blobs are written to a temporary name and renamed into
// place, so a reader never sees half a file.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkedKey, checkedPrefix, newKey } from './blobKeys.js';
import { BlobTooLargeError, notKept, SWEEP_BATCH, type BlobStore, type KeepBlobs, type StoredBlob } from './blobStore.js';

/** What a blob's directory may hold: blobs, and blobs being written (see putStream, putBuffer). */
const ENTRY_PATTERN = /^[0-9a-f-]{36}(\.partial)?$/;

/** Age after which a scratch file is left over from a stopped process. */
const STALE_SCRATCH_MS = 60 * 60 * 1000;

export class LocalBlobStore implements BlobStore {
  private swept: Promise<void> | undefined;

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  private async newKey(prefix: string): Promise<{ key: string; file: string; temp: string }> {
    const key = newKey(prefix);
    const file = this.pathOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    return { key, file, temp: `${file}.partial` };
  }

  async putStream(prefix: string, source: Readable, maxBytes: number | null): Promise<StoredBlob> {
    const { key, file, temp } = await this.newKey(prefix);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (maxBytes !== null && size > maxBytes) callback(new BlobTooLargeError(maxBytes));
        else callback(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, fs.createWriteStream(temp));
      await fsp.rename(temp, file);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    return { key, size };
  }

  async putBuffer(prefix: string, bytes: Uint8Array): Promise<StoredBlob> {
    const { key, file, temp } = await this.newKey(prefix);
    await fsp.writeFile(temp, bytes);
    await fsp.rename(temp, file);
    return { key, size: bytes.byteLength };
  }

  async read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  readStream(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.pathOf(key), { ...range, highWaterMark: 256 * 1024 });
  }

  async localFile(key: string): Promise<string> {
    const file = this.pathOf(key);
    await fsp.access(file); // a missing blob fails here, as it does in every store
    return file;
  }

  async scratchFile(): Promise<string> {
    const dir = path.join(this.root, 'scratch');
    await fsp.mkdir(dir, { recursive: true });
    this.swept ??= this.removeStaleScratch();
    await this.swept;
    const file = path.join(dir, `${randomUUID()}.partial`);
    await fsp.writeFile(file, '');
    return file;
  }

  async adoptFile(prefix: string, file: string): Promise<StoredBlob> {
    if (!this.isScratchFile(file)) throw new Error(`not a scratch file of this store: ${file.slice(0, 200)}`);
    const { key, file: target } = await this.newKey(prefix);
    const { size } = await fsp.stat(file);
    await fsp.rename(file, target);
    return { key, size };
  }

  async discardFile(file: string): Promise<void> {
    if (this.isScratchFile(file)) await fsp.rm(file, { force: true });
  }

  /**
   * Removes scratch files a stopped process left behind (a parse lasts minutes at most, so a
   * file an hour old is no one's); once per process, on the first scratch file.
   */
  private async removeStaleScratch(): Promise<void> {
    await this.removeOlderThan('scratch', Date.now() - STALE_SCRATCH_MS);
  }

  async removeOlderThan(prefix: string, cutoff: number, keep?: KeepBlobs): Promise<number> {
    const dir = path.join(this.root, checkedPrefix(prefix));
    const names = await fsp.readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const old: string[] = [];
    for (const name of names) {
      if (!(prefix === 'scratch' ? name.endsWith('.partial') : ENTRY_PATTERN.test(name))) continue;
      const stat = await fsp.stat(path.join(dir, name)).catch(() => null);
      if (stat?.isFile() && stat.mtimeMs < cutoff) old.push(`${prefix}/${name}`);
    }
    let removed = 0;
    for (let at = 0; at < old.length; at += SWEEP_BATCH) {
      for (const key of await notKept(old.slice(at, at + SWEEP_BATCH), keep)) {
        await fsp.rm(path.join(this.root, key), { force: true });
        removed++;
      }
    }
    return removed;
  }

  private isScratchFile(file: string): boolean {
    return path.dirname(file) === path.join(this.root, 'scratch') && file.endsWith('.partial');
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return fsp.access(this.pathOf(key)).then(
      () => true,
      () => false,
    );
  }
}
