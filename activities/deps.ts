import type { Db } from '../db/connection.js';
import type { BlobStore } from '../lib/blobs/blobStore.js';

/** What activities are built over; the worker entry points create these. */
export interface ActivityDeps {
  db: Db;
  blobs: BlobStore;
}
