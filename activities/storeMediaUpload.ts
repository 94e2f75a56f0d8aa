// image/upload and marker/upload: the uploaded file, processed (lib/media) and stored with an id
// derived from the request, so a retried activity (or a retried request under the same
// Idempotency-Key) finds the media of its first run instead of storing a second. The request's
// file is removed here once the media is stored (the workflow removes it when this fails). Runs
// on the `media` task queue.
import { Context } from '@temporalio/activity';
import type { StoreMediaInput, UploadMediaResult } from '../lib/jobContracts.js';
import { findImage, findMarker } from '../db/media.js';
import { imageUploadAnswer, markerUploadAnswer } from '../lib/media/fields.js';
import { derivedMediaId } from '../lib/media/ids.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { storeImage, storeMarker } from './mediaStore.js';

const FORMAT = { jpg: 'jpeg', png: 'png' } as const;

export function makeStoreMediaUpload(deps: ActivityDeps) {
  const { db, blobs } = deps;

  /** The answer of media this request stored already (ids are random: another owner's row under it would be a reused id). */
  async function answerOf(input: StoreMediaInput, id: string): Promise<UploadMediaResult | undefined> {
    const mine = <R extends { ownerId: number }>(found: R | undefined): R | undefined => {
      if (found && found.ownerId !== input.ownerId) throw new Error('media id already belongs to another owner');
      return found;
    };
    if (input.kind === 'image') {
      const image = mine(await findImage(db, id));
      return image && { kind: 'image', image: imageUploadAnswer(image) };
    }
    const marker = mine(await findMarker(db, id));
    return marker && { kind: 'marker', marker: markerUploadAnswer(marker) };
  }

  return async function storeMediaUpload(input: StoreMediaInput): Promise<UploadMediaResult> {
    return failingOnBadInput(async () => {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), 2_000);
      try {
        await deps.faults?.beforeMedia?.(context.cancellationSignal);
        const id = derivedMediaId(`${input.requestId}:${input.kind}`);
        // A retry after a run that stored the media (and removed the file): its answer again.
        const done = await answerOf(input, id);
        if (done) return done;
        const bytes = await blobs.read(input.blobKey);
        const options = { id, declared: FORMAT[input.fileType] };
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
