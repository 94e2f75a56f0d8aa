// The Temporal Schedules of the service, made (or brought in line with this code) when a worker
// process starts: several processes doing it at once is harmless. Operators see and pause them
// in the Temporal UI.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptionsAction } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { MediaCleanupRunner } from '../lib/adminCommands.js';
import { WORKFLOW_TYPES, type MediaCleanupResult, type MediaCleanupWorkflowInput } from '../lib/jobContracts.js';

/** Removes the files of requests that ended without removing them. */
export const CLEANUP_SCHEDULE_ID = 'cleanup';
/** Deletes images and markers no map uses (after the grace period). */
export const MEDIA_CLEANUP_SCHEDULE_ID = 'media-cleanup';

export interface ScheduleSettings {
  /** The task queue the workflows run on (`maps`). */
  taskQueue: string;
  mediaTaskQueue: string;
  mediaGraceMs: number;
  versionsKept: number;
  versionsKeptDays: number;
}

const versionRetention = (settings: Pick<ScheduleSettings, 'versionsKept' | 'versionsKeptDays'>) => ({ keep: settings.versionsKept, keepDays: settings.versionsKeptDays });

async function ensureHourly(client: Client, scheduleId: string, action: ScheduleOptionsAction): Promise<void> {
  const spec = { intervals: [{ every: '1 hour' as const }] };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' as const };
  try {
    await client.schedule.create({ scheduleId, spec, action, policies });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action, policies }));
  }
}

export async function ensureSchedules(client: Client, settings: ScheduleSettings): Promise<void> {
  await ensureHourly(client, CLEANUP_SCHEDULE_ID, {
    type: 'startWorkflow',
    workflowType: WORKFLOW_TYPES.cleanup,
    taskQueue: settings.taskQueue,
    args: [],
    // A run that hangs must not hold the schedule (overlapping runs are skipped).
    workflowExecutionTimeout: '1 hour',
  });
  const mediaCleanup: MediaCleanupWorkflowInput = { graceMs: settings.mediaGraceMs, mediaTaskQueue: settings.mediaTaskQueue, versions: versionRetention(settings) };
  await ensureHourly(client, MEDIA_CLEANUP_SCHEDULE_ID, {
    type: 'startWorkflow',
    workflowType: WORKFLOW_TYPES.mediaCleanup,
    taskQueue: settings.taskQueue,
    args: [mediaCleanup],
    workflowExecutionTimeout: '1 hour',
  });
}

/** Runs the media cleanup workflow now (what `npm run admin -- media-gc` does) and waits for what it deleted. */
export async function runMediaCleanupNow(client: Client, settings: Omit<ScheduleSettings, 'mediaGraceMs'>, graceMs: number): Promise<MediaCleanupResult> {
  const input: MediaCleanupWorkflowInput = { graceMs, mediaTaskQueue: settings.mediaTaskQueue, versions: versionRetention(settings) };
  return client.workflow.execute(WORKFLOW_TYPES.mediaCleanup, {
    taskQueue: settings.taskQueue,
    workflowId: `media-gc:${randomUUID()}`,
    args: [input],
    workflowExecutionTimeout: '1 hour',
  });
}

/** `admin media-gc` over a job-server client (the embedded service's, or the CLI's own). */
export function mediaCleanupRunner(client: () => Promise<Client>, settings: ScheduleSettings): MediaCleanupRunner {
  return {
    defaultGraceMs: settings.mediaGraceMs,
    run: async (graceMs) => runMediaCleanupNow(await client(), settings, graceMs),
  };
}
