import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

/**
 * Parsing (and the activities that parse and write at once): heartbeats, so a cancelled workflow
 * (or, for histories from before the one-activity patches, the processing-limit timer) reaches
 * it; bad input is never retried.
 */
export const parsing = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  cancellationType: 'TRY_CANCEL',
  retry: { maximumAttempts: 3 },
});

/**
 * Short database writes and clean-up, as local activities: they run inside the worker's
 * workflow task instead of a round trip through the task queue, which saves most of an
 * upload's dispatch time. Retried through passing faults (a restarted database).
 */
export const writing = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});
