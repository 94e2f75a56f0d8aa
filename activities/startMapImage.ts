// Starts a new map's map-image workflow (workflows/mapImage.ts) for its first image, from the
// upload workflow as a local activity: one call to the Temporal server inside the upload's
// workflow task, so the upload answers as soon as the map exists. (Before, the upload started it
// as a child workflow and had to wait for the child's start event — a further workflow task:
// 46 ms of a paced upload, 91 ms back to back — since a parent that ends before its child has
// started never starts it, even with ParentClosePolicy ABANDON: temporalio/temporal#2829.)
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { mapImageWorkflowId, WORKFLOW_TYPES, type MapImageInput } from '../lib/jobContracts.js';

export type StartMapImageInput = Pick<MapImageInput, 'mapId' | 'renderTaskQueue' | 'spacingMs'>;

export function makeStartMapImage(client: Client) {
  return async function startMapImage(input: StartMapImageInput): Promise<void> {
    const image: MapImageInput = { ...input, initialRender: true };
    try {
      await client.workflow.start(WORKFLOW_TYPES.mapImage, {
        workflowId: mapImageWorkflowId(input.mapId),
        // The upload's own task queue (the workers that run every workflow).
        taskQueue: Context.current().info.taskQueue,
        args: [image],
        // A new map's first image, once: a retried attempt finds it started (or done) already.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        workflowIdConflictPolicy: 'FAIL',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };
}
