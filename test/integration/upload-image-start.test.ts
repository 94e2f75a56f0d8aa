// map/upload answers once the map exists (issue 24): its workflow starts the map's image
// workflow with one call from a local activity (activities/startMapImage.ts) in the workflow
// task of the write, instead of as a child workflow whose start event it had to wait for. The
// image is still rendered, once; histories of uploads from before the change (a child workflow,
// test/fixtures/histories/upload-map-child-image.bin, recorded with that code) still replay.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mapImageWorkflowId } from '../../lib/jobContracts.js';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../../workers/createWorker.js';
import { startTestService, type TestService } from './harness.js';

const HISTORIES = path.join(import.meta.dirname, '../fixtures/histories');

let service: TestService;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  service = await startTestService();
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: service.config.temporalNamespace });
});
afterAll(async () => {
  await connection?.close();
  await service?.stop();
});

const point = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Paris' } }] });

async function waitForImage(mapId: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await service.db('maps').where({ id: mapId }).first('image_files')).image_files === null) {
    if (Date.now() > deadline) throw new Error(`map ${mapId} got no image`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const kinds = (history: temporal.api.history.v1.IHistory) =>
  (history.events ?? []).map((event) => Object.keys(event).find((key) => key.endsWith('EventAttributes') && (event as Record<string, unknown>)[key]));

const replay = (history: temporal.api.history.v1.IHistory, workflowId: string) =>
  Worker.runReplayHistory({ workflowsPath: WORKFLOWS_PATH, interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES } }, history, workflowId);

describe('map/upload and its first image', () => {
  let uploadHistory: temporal.api.history.v1.IHistory;
  let uploadWorkflowId: string;

  it('answers once the map exists: the image workflow is started by a local activity, not as a child, and renders once', async () => {
    const owner = await service.newUser();
    // Named by an Idempotency-Key, the upload's workflow is this one (other test files upload in the same namespace).
    const idempotencyKey = randomUUID();
    const answer = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public' }, point, { 'idempotency-key': idempotencyKey });
    expect(answer.error).toBeUndefined();
    const mapId = answer.id as number;
    await waitForImage(mapId);

    uploadWorkflowId = `upload:${owner.userId}:${idempotencyKey}`;
    uploadHistory = await client.workflow.getHandle(uploadWorkflowId).fetchHistory();
    const events = kinds(uploadHistory);
    // No child workflow, so no wait for its start event and no workflow task after the write.
    expect(events).not.toContain('startChildWorkflowExecutionInitiatedEventAttributes');
    expect(events).not.toContain('childWorkflowExecutionStartedEventAttributes');
    expect(events.at(-1)).toBe('workflowExecutionCompletedEventAttributes');

    const image = await client.workflow.getHandle(mapImageWorkflowId(mapId)).fetchHistory();
    const started = image.events![0]!.workflowExecutionStartedEventAttributes!;
    expect(started.parentWorkflowExecution ?? null).toBeNull();
    const renders = (image.events ?? []).filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'renderMapImage');
    expect(renders).toHaveLength(1);
  });

  it('replays the history of an upload of today and of one from before (its image a child workflow)', async () => {
    await replay(uploadHistory, uploadWorkflowId);
    const before = temporal.api.history.v1.History.decode(fs.readFileSync(path.join(HISTORIES, 'upload-map-child-image.bin')));
    expect(kinds(before)).toContain('startChildWorkflowExecutionInitiatedEventAttributes');
    await replay(before, 'upload-before-issue-24');
  });
});
