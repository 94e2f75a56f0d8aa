// The hourly clean-up's side of the blob store. A request removes its files when it ends, but a
// worker killed mid-request, or a workflow cut off by its execution timeout, leaves them behind:
// requests last minutes, so a request's file a day old belongs to no one. Stored files (image and
// marker derivatives, maps' static images) are kept while a row names them; one that no row names
// a day after it was written was left by a worker stopped between storing it and writing its row
// (the retry stored new ones), or by a removal that failed, and goes too.
import { Context } from '@temporalio/activity';
import { storedFileKeysInUse } from '../db/storedFileKeys.js';
import { REQUEST_PREFIXES, STORED_FILE_PREFIXES } from '../lib/blobs/blobStore.js';
import type { ActivityDeps } from './deps.js';

const HOUR = 60 * 60 * 1000;
export const ORPHAN_AGE_MS = 24 * HOUR;
/** Scratch files live as long as one parse (minutes). */
const SCRATCH_AGE_MS = HOUR;

export function makeSweepOrphanBlobs({ blobs, db }: ActivityDeps) {
  return async function sweepOrphanBlobs(): Promise<{ removed: number }> {
    const now = Date.now();
    let removed = 0;
    for (const prefix of Object.values(REQUEST_PREFIXES)) removed += await blobs.removeOlderThan(prefix, now - ORPHAN_AGE_MS);
    removed += await blobs.removeOlderThan('scratch', now - SCRATCH_AGE_MS);
    // Every stored file is listed (and looked up, 1,000 keys a query): a heartbeat per batch
    // keeps a long sweep of a large store alive, and a dead worker noticed.
    const inUse = (keys: string[]) => {
      Context.current().heartbeat();
      return storedFileKeysInUse(db, keys);
    };
    for (const prefix of Object.values(STORED_FILE_PREFIXES)) removed += await blobs.removeOlderThan(prefix, now - ORPHAN_AGE_MS, inUse);
    return { removed };
  };
}
