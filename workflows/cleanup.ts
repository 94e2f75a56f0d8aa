// The hourly clean-up, started by the Temporal Schedule `cleanup` (workers/schedules.ts): removes
// the files of requests that ended without removing them, and stored files no row names a day
// on (activities/sweepOrphanBlobs.ts). Unused images and markers are the `mediaCleanup`'s.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { sweepOrphanBlobs } = proxyActivities<Activities>({
  // It lists every stored file: minutes on a large store, heartbeating per batch of 1,000.
  startToCloseTimeout: '50 minutes',
  heartbeatTimeout: '5 minutes',
  retry: { maximumAttempts: 3 },
});

export async function cleanup(): Promise<{ blobsRemoved: number }> {
  const { removed } = await sweepOrphanBlobs();
  return { blobsRemoved: removed };
}
