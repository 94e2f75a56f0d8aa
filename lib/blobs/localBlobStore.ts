// BlobStore on a local directory: blobs are written to a temporary name and renamed into
// place, so a reader never sees half a file.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from './blobStore.js';

const KEY_PATTERN = /^[a-z0-9-]+\/[0-9a-f-]{36}$/;

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    // Keys are made by this class; refusing anything else keeps a key from naming another path.
    if (!KEY_PATTERN.test(key)) throw new Error(`not a blob key: ${key.slice(0, 80)}`);
    return path.join(this.root, key);
  }

  private async newKey(prefix: string): Promise<{ key: string; file: string; temp: string }> {
    const key = `${prefix}/${randomUUID()}`;
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

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
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
