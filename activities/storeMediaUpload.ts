// image/upload and marker/upload: the uploaded file, processed (lib/media) and stored with an id
// derived from the request, so a retried activity (or a retried request under the same
// Idempotency-Key) finds the media of its first run instead of storing a second. The request's
// file is removed here once the media is stored (the workflow removes it when this fails). Runs
// on the `media` task queue.
import { Context } from '@temporalio/activity';
import type { StoreMediaInput, UploadMediaResult } from '../lib/jobContracts.js';
import { imageUploadAnswer, markerUploadAnswer } from '../lib/media/fields.js';
import { derivedMediaId } from '../lib/media/ids.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { storeImage, storeMarker } from './mediaStore.js';

const FORMAT = { jpg: 'jpeg', png: 'png' } as const;

export function makeStoreMediaUpload(deps: ActivityDeps) {
  const { db, blobs } = deps;
  return async function storeMediaUpload(input: StoreMediaInput): Promise<UploadMediaResult> {
    return failingOnBadInput(async () => {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), 2_000);
      try {
        await deps.faults?.beforeMedia?.(context.cancellationSignal);
        const options = { id: derivedMediaId(`${input.requestId}:${input.kind}`), declared: FORMAT[input.fileType] };
        // Read only when the media is not stored yet: a retry after a run that stored it (and
        // removed the file) answers from the stored row.
        const bytes = () => blobs.read(input.blobKey);
        const result: UploadMediaResult =
          input.kind === 'image'
            ? { kind: 'image', image: imageUploadAnswer(await storeImage(db, blobs, input.ownerId, bytes, options)) }
            : { kind: 'marker', marker: markerUploadAnswer(await storeMarker(db, blobs, input.ownerId, bytes, { ...options, accepted: ['png'] })) };
        await blobs.delete(input.blobKey);
        return result;
      } finally {
        clearInterval(beat);
      }
    });
  };
}
