// The hourly clean-up's side of the blob store: a request removes its files when it ends, but a
// worker killed mid-request, or a workflow cut off by its execution timeout, leaves them behind.
// Requests last minutes, so a request's file a day old belongs to no one.
import { REQUEST_PREFIXES } from '../lib/blobs/blobStore.js';
import type { ActivityDeps } from './deps.js';

const HOUR = 60 * 60 * 1000;
export const ORPHAN_AGE_MS = 24 * HOUR;
/** Scratch files live as long as one parse (minutes). */
const SCRATCH_AGE_MS = HOUR;

export function makeSweepOrphanBlobs({ blobs }: ActivityDeps) {
  return async function sweepOrphanBlobs(): Promise<{ removed: number }> {
    const now = Date.now();
    let removed = 0;
    for (const prefix of Object.values(REQUEST_PREFIXES)) removed += await blobs.removeOlderThan(prefix, now - ORPHAN_AGE_MS);
    removed += await blobs.removeOlderThan('scratch', now - SCRATCH_AGE_MS);
    return { removed };
  };
}
