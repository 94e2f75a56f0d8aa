// The cleanup of unused images and markers: started hourly by the `media-cleanup` Temporal
// Schedule (workers/schedules.ts) and on demand by `npm run admin -- media-gc`. First deletes map
// versions past their retention (their media may then be unused), then media in batches until a
// batch comes back short; answers every deleted id.
import { proxyActivities } from '@temporalio/workflow';
import type { MediaActivities } from '../activities/index.js';
import type { MediaCleanupResult, MediaCleanupWorkflowInput } from '../lib/jobContracts.js';

/** Batches per run: a backlog larger than this (500 of each per batch) goes on in the next run. */
const MAX_BATCHES = 100;

export async function mediaCleanup(input: MediaCleanupWorkflowInput): Promise<MediaCleanupResult> {
  const { deleteUnusedMedia, pruneMapVersions } = proxyActivities<MediaActivities>({
    taskQueue: input.mediaTaskQueue,
    startToCloseTimeout: '10 minutes',
    retry: { maximumAttempts: 5 },
  });
  const result: MediaCleanupResult = { images: [], markers: [] };
  // Versions first: media only an old version showed can go in the same run.
  if (input.versions) result.versions = await pruneMapVersions(input.versions);
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const { images, markers, more } = await deleteUnusedMedia({ graceMs: input.graceMs });
    result.images.push(...images);
    result.markers.push(...markers);
    if (!more) break;
  }
  return result;
}
