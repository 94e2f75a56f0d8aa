// The files a remote BlobStore (S3) keeps on this machine: scratch files that parser threads
// write before they are stored (`<uuid>.partial`), and copies of blobs for code that reads files
// (`<uuid>.copy`). One directory per process's store; each file is removed when its user is done,
// and what a stopped process left behind is swept by age.
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';

const SCRATCH = '.partial';
const COPY = '.copy';
/** Age after which a file here is left over from a stopped process (a parse lasts minutes). */
const STALE_MS = 60 * 60 * 1000;

export class LocalScratch {
  private swept: Promise<unknown> | undefined;

  constructor(readonly dir: string) {}

  private async newFile(suffix: string): Promise<string> {
    await fsp.mkdir(this.dir, { recursive: true });
    // Once per process, on the first file: what a stopped process left behind.
    this.swept ??= this.removeOlderThan(Date.now() - STALE_MS);
    await this.swept;
    return path.join(this.dir, `${randomUUID()}${suffix}`);
  }

  /** A new, empty scratch file. */
  async scratchFile(): Promise<string> {
    const file = await this.newFile(SCRATCH);
    await fsp.writeFile(file, '');
    return file;
  }

  /** A path for a new copy of a blob (the caller writes it). */
  copyFile(): Promise<string> {
    return this.newFile(COPY);
  }

  isScratchFile(file: string): boolean {
    return path.dirname(file) === this.dir && file.endsWith(SCRATCH);
  }

  isOwnFile(file: string): boolean {
    return path.dirname(file) === this.dir && (file.endsWith(SCRATCH) || file.endsWith(COPY));
  }

  async discard(file: string): Promise<void> {
    if (this.isOwnFile(file)) await fsp.rm(file, { force: true });
  }

  /** Removes the scratch files and copies last written before `cutoff` (epoch ms). */
  async removeOlderThan(cutoff: number): Promise<number> {
    const names = await fsp.readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.dir, name);
      if (!this.isOwnFile(file)) continue;
      const stat = await fsp.stat(file).catch(() => null);
      if (stat?.isFile() && stat.mtimeMs < cutoff) {
        await fsp.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
