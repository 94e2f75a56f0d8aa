import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

/** Parsing: heartbeats, so the processing-limit timer can cancel it; bad input is never retried. */
export const parsing = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  cancellationType: 'TRY_CANCEL',
  retry: { maximumAttempts: 3 },
});

/** Short database writes and clean-up: retried through passing faults (a restarted database). */
export const writing = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});
