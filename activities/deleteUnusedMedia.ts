// The media cleanup's one step: deletes a batch of unused images and markers (db/unusedMedia.ts
// says which and why a racing write never loses its media) and then their files. A file whose
// removal fails stays behind as an orphan; its row is gone, so nothing serves it.
import { deleteUnusedMedia as deleteRows } from '../db/unusedMedia.js';
import type { MediaCleanupInput } from '../lib/jobContracts.js';
import type { ActivityDeps } from './deps.js';
import { deleteDerivativeBlobs } from './mediaStore.js';

/** Media deleted per call: the workflow calls again while a call fills its batch. */
export const MEDIA_CLEANUP_BATCH = 500;

export function makeDeleteUnusedMedia({ db, blobs }: ActivityDeps) {
  return async function deleteUnusedMedia(input: MediaCleanupInput): Promise<{ images: string[]; markers: string[]; more: boolean }> {
    const images = await deleteRows(db, 'image', input.graceMs, MEDIA_CLEANUP_BATCH);
    const markers = await deleteRows(db, 'marker', input.graceMs, MEDIA_CLEANUP_BATCH);
    for (const media of [...images, ...markers]) await deleteDerivativeBlobs(blobs, media.derivatives);
    return {
      images: images.map((m) => m.id),
      markers: markers.map((m) => m.id),
      more: images.length === MEDIA_CLEANUP_BATCH || markers.length === MEDIA_CLEANUP_BATCH,
    };
  };
}
