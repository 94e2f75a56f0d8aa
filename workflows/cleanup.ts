// The hourly clean-up, started by the Temporal Schedule `cleanup` (workers/schedules.ts): removes
// the files of requests that ended without removing them. (Unused images and markers join it
// when they can be uploaded on their own.)
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { sweepOrphanBlobs } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3 },
});

export async function cleanup(): Promise<{ blobsRemoved: number }> {
  const { removed } = await sweepOrphanBlobs();
  return { blobsRemoved: removed };
}
