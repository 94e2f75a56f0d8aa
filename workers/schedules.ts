// The Temporal Schedules of the service, made (or brought in line with this code) when a worker
// process starts: several processes doing it at once is harmless. Operators see and pause them
// in the Temporal UI.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptionsAction } from '@temporalio/client';
import { WORKFLOW_TYPES } from '../lib/jobContracts.js';

export const CLEANUP_SCHEDULE_ID = 'cleanup';

export async function ensureSchedules(client: Client, taskQueue: string): Promise<void> {
  const spec = { intervals: [{ every: '1 hour' }] };
  const action: ScheduleOptionsAction = {
    type: 'startWorkflow',
    workflowType: WORKFLOW_TYPES.cleanup,
    taskQueue,
    args: [],
    // A run that hangs must not hold the schedule (overlapping runs are skipped).
    workflowExecutionTimeout: '1 hour',
  };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' };
  try {
    await client.schedule.create({ scheduleId: CLEANUP_SCHEDULE_ID, spec, action, policies });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(CLEANUP_SCHEDULE_ID).update((previous) => ({ ...previous, spec, action, policies }));
  }
}
