// map/append's job as both its callers run it — the API's map/append and the web editor's Import
// (api/web/editorEndpoints/mapImport.ts): the append workflow on the received file; after its commit,
// map.features_changed to the owner's webhooks (once, also when the request is answered again)
// and the import counted in the metrics under the format it was.
import type { Context } from 'koa';
import { GUESSED_FORMAT_FILE_TYPES, WORKFLOW_TYPES, type AppendMapInput, type AppendMapResult } from '../lib/jobContracts.js';
import { recordImport } from '../lib/observability/metrics.js';
import type { ApiDeps } from './context.js';
import type { ReceivedFile } from './fileBody.js';
import { runFileJob } from './fileJobs.js';
import { emitMapEvent, featuresAppended, type WebhookDeps } from './webhookEvents.js';

export interface AppendJob {
  operation: 'map/append' | 'web/import';
  keyed: boolean;
  args: Record<string, unknown>;
  input: AppendMapInput;
  file: ReceivedFile;
}

export async function runAppendJob(ctx: Context, deps: Pick<ApiDeps, 'config' | 'blobs' | 'jobs'> & WebhookDeps, job: AppendJob): Promise<AppendMapResult> {
  const { input } = job;
  const result = await runFileJob<AppendMapResult>(ctx, deps, { ...job, workflowType: WORKFLOW_TYPES.appendMap, workflowId: input.requestId });
  if (result.revision !== undefined) void emitMapEvent(deps, featuresAppended(input.requestId, input.mapId, result.revision, result.addedIds, result.import.features));
  const fileType = input.fileType !== 'guess' ? input.fileType : result.format ? GUESSED_FORMAT_FILE_TYPES[result.format] : 'unknown';
  recordImport(fileType, job.file.size, result.import.features);
  return result;
}
