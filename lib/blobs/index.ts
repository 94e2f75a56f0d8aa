import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blobStore.js';
import { LocalBlobStore } from './localBlobStore.js';

/** The blob store the configuration names: for now a directory under DATA_DIR. */
export function openBlobStore(config: Pick<Config, 'dataDir'>): BlobStore {
  return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
}
