// The API's door to Temporal: one lazily opened client, and `run`, which starts a workflow and
// waits for its result within bounds. Every way this can fail becomes an AppError.
import {
  Client,
  Connection,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowUpdateFailedError,
  type ConnectionLike,
  type Workflow,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { AppError, isErrorCode } from '../lib/errors.js';
import { MAP_SAVED_SIGNAL, mapImageWorkflowId, REFRESH_IMAGE_UPDATE, WORKFLOW_TYPES, type MapImageInput, type RefreshImageAnswer } from '../lib/jobContracts.js';
import { secondsSince, workflowWait, workflows } from '../lib/observability/metrics.js';
import { REQUEST_ID_MEMO } from '../lib/observability/requestId.js';
import type { RequestContext } from './requestContext.js';

export interface JobGatewayOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  /** How long to try to reach the Temporal server before answering service_unavailable. */
  connectTimeoutMs?: number;
  /** When no worker has picked a job up after this long, the job is ended and the API says so. */
  noWorkerAfterMs?: number;
  /**
   * The NativeConnection of a worker of the task queue in this process (the embedded service).
   * Jobs then start eagerly: the server hands the first workflow task straight back to that
   * worker with the start, instead of through the task queue (measured on the dev server: the
   * first dispatch 2–37 ms → 0). The connection stays the worker's (close() leaves it open).
   */
  sharedConnection?: ConnectionLike;
}

export interface RunOptions {
  workflowId: string;
  /** null: wait as long as the client waits (enterprise, no processing limit). */
  waitMs: number | null;
  /** Ends the wait when the HTTP client goes away. */
  signal?: AbortSignal;
  /**
   * With a client's Idempotency-Key: what the request was (a fingerprint). A job found under the
   * same id for another request is refused with idempotency_key_reused instead of being joined.
   */
  request?: string;
  /**
   * The request's file, which a job this request starts takes over (and removes when it ends,
   * however it ends). `onAdopted` says whether it did: not when the request joined an earlier
   * try's job, and not when the job was ended before any worker ran it.
   */
  file?: { key: string; onAdopted(adopted: boolean): void };
  /** The HTTP request that runs the job: its id goes into the workflow's memo, the workflow's id into its access log line. */
  requestContext?: RequestContext;
}

class NoWorker extends Error {}
class WaitExpired extends Error {}

const UNAVAILABLE = 'The job server cannot be reached right now; please try again in a minute.';

export class JobGateway {
  private clientPromise: Promise<Client> | undefined;

  constructor(private readonly options: JobGatewayOptions) {}

  private connect(): Promise<Client> {
    const shared = this.options.sharedConnection;
    if (shared) return (this.clientPromise ??= Promise.resolve(new Client({ connection: shared, namespace: this.options.namespace })));
    this.clientPromise ??= Connection.connect({
      address: this.options.address,
      connectTimeout: this.options.connectTimeoutMs ?? 5_000,
    }).then(
      (connection) => new Client({ connection, namespace: this.options.namespace }),
      (error) => {
        this.clientPromise = undefined; // try again on the next request
        throw error;
      },
    );
    return this.clientPromise;
  }

  async client(): Promise<Client> {
    try {
      return await this.connect();
    } catch {
      throw new AppError('service_unavailable', UNAVAILABLE);
    }
  }

  /** True when the Temporal server answers (within `timeoutMs` of the call, once connected). */
  async ping(timeoutMs = 3_000): Promise<boolean> {
    try {
      const client = await this.connect();
      await client.withDeadline(Date.now() + timeoutMs, () =>
        client.workflowService.describeNamespace({ namespace: this.options.namespace }),
      );
      return true;
    } catch {
      return false;
    }
  }

  async run<R>(workflowType: string, input: object, options: RunOptions): Promise<R> {
    const client = await this.client();
    // The request's id in the memo, where the Temporal Web UI shows it; its workflow's id in its access log line.
    const request = options.requestContext;
    if (request) request.workflowId = options.workflowId;
    let handle: WorkflowHandle;
    try {
      handle = await client.withDeadline(Date.now() + (this.options.connectTimeoutMs ?? 5_000) * 2, () =>
        client.workflow.start(workflowType, {
          taskQueue: this.options.taskQueue,
          workflowId: options.workflowId,
          args: [input],
          // A retried idempotency key joins the running job or gets the finished one's result;
          // only a failed job may run again under the same id.
          workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
          workflowIdConflictPolicy: 'USE_EXISTING',
          requestEagerStart: this.options.sharedConnection !== undefined,
          memo: {
            ...(options.request !== undefined ? { request: options.request } : {}),
            ...(options.file ? { file: options.file.key } : {}),
            ...(request ? { [REQUEST_ID_MEMO]: request.requestId } : {}),
          },
          // A backstop only: the workflow ends itself by its processing limit and then removes its
          // files, which a workflow cut off by this timeout could not do.
          ...(options.waitMs !== null ? { workflowExecutionTimeout: options.waitMs + 5 * 60_000 } : {}),
        }),
      );
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        handle = client.workflow.getHandle(options.workflowId);
      } else {
        throw new AppError('service_unavailable', UNAVAILABLE);
      }
    }
    workflows.inc({ workflow_type: workflowType, outcome: 'started', error_code: '' });
    if (options.request === undefined) options.file?.onAdopted(true); // a fresh id: the job is this request's
    else await this.checkSameRequest(handle, options.request, options.file);
    const start = process.hrtime.bigint();
    try {
      const result = await this.await<R>(client, handle, options);
      workflows.inc({ workflow_type: workflowType, outcome: 'completed', error_code: '' });
      workflowWait.observe({ workflow_type: workflowType, outcome: 'completed' }, secondsSince(start));
      return result;
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'internal_error';
      workflows.inc({ workflow_type: workflowType, outcome: 'failed', error_code: code });
      workflowWait.observe({ workflow_type: workflowType, outcome: 'failed' }, secondsSince(start));
      throw error;
    }
  }

  /**
   * The job under a client's key was started by the same request (this one, or an earlier try of
   * it); whether it is this try's (then it has taken over this try's file).
   */
  private async checkSameRequest(handle: WorkflowHandle, request: string, file: RunOptions['file']): Promise<void> {
    let memo: Record<string, unknown> | undefined;
    try {
      memo = (await handle.describe()).memo;
    } catch {
      throw new AppError('service_unavailable', UNAVAILABLE);
    }
    file?.onAdopted(memo?.file === file.key);
    if (memo?.request !== request) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a different request (another map, other arguments or another file); use a new key for a new request.',
      );
    }
  }

  private async await<R>(client: Client, handle: WorkflowHandle, options: RunOptions): Promise<R> {
    const abort = new AbortController();
    const timers: NodeJS.Timeout[] = [];
    const onClientGone = () => abort.abort();
    options.signal?.addEventListener('abort', onClientGone);
    const guards = new Promise<never>((_, reject) => {
      timers.push(
        setTimeout(async () => {
          // Only the start events in the history: no worker has touched the job.
          const description = await handle.describe().catch(() => undefined);
          if (description && description.status.name === 'RUNNING' && (description.historyLength ?? 0) <= 2) {
            reject(new NoWorker());
          }
        }, this.options.noWorkerAfterMs ?? 15_000),
      );
      if (options.waitMs !== null) timers.push(setTimeout(() => reject(new WaitExpired()), options.waitMs));
    });
    try {
      return (await Promise.race([client.withAbortSignal(abort.signal, () => handle.result()), guards])) as R;
    } catch (error) {
      throw await this.explain(handle, error, options);
    } finally {
      timers.forEach(clearTimeout);
      abort.abort();
      options.signal?.removeEventListener('abort', onClientGone);
    }
  }

  private async explain(handle: WorkflowHandle, error: unknown, options: RunOptions): Promise<AppError> {
    if (error instanceof NoWorker) {
      // Never started: ended here, so a worker that comes back later cannot run it after this answer.
      await handle.terminate('no worker took this job up').catch(() => undefined);
      options.file?.onAdopted(false); // it never ran, so it will not remove the file
      return new AppError('service_unavailable', 'No worker is processing jobs right now; please try again later.');
    }
    if (error instanceof WaitExpired) {
      // Past its processing limit the job cannot write any more (its writes hold the deadline);
      // it is left to fail by itself and remove its files.
      return new AppError('processing_timeout', 'The file was not processed within the time limit.');
    }
    if (error instanceof WorkflowFailedError) {
      const cause = error.cause;
      if (cause instanceof ApplicationFailure && isErrorCode(cause.type)) return new AppError(cause.type, cause.message);
      if (cause instanceof TimeoutFailure) {
        return new AppError('processing_timeout', 'The file was not processed within the time limit.');
      }
      return new AppError('internal_error', 'The job failed because of an internal error; please try again.');
    }
    return new AppError('service_unavailable', UNAVAILABLE);
  }

  /**
   * Asks the map's map-image workflow for a render (starting the workflow if none runs: an
   * update-with-start, the signal-with-start that answers) and waits for its answer: the render
   * done, or when the image will be refreshed (during the cool-down).
   */
  async refreshImage(input: MapImageInput, waitMs: number, signal?: AbortSignal, request?: RequestContext): Promise<RefreshImageAnswer> {
    const client = await this.client();
    if (request) request.workflowId = mapImageWorkflowId(input.mapId);
    const start = process.hrtime.bigint();
    const outcome = (name: 'completed' | 'failed', code = '') => {
      workflows.inc({ workflow_type: WORKFLOW_TYPES.mapImage, outcome: name, error_code: code });
      workflowWait.observe({ workflow_type: WORKFLOW_TYPES.mapImage, outcome: name }, secondsSince(start));
    };
    try {
      const answer = await this.requestRender(client, input, waitMs, signal);
      outcome('completed');
      return answer;
    } catch (error) {
      outcome('failed', error instanceof AppError ? error.code : 'internal_error');
      throw error;
    }
  }

  private async requestRender(client: Client, input: MapImageInput, waitMs: number, signal?: AbortSignal): Promise<RefreshImageAnswer> {
    const startWorkflowOperation = new WithStartWorkflowOperation(WORKFLOW_TYPES.mapImage, {
      workflowId: mapImageWorkflowId(input.mapId),
      taskQueue: this.options.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    const abort = new AbortController();
    const onClientGone = () => abort.abort();
    signal?.addEventListener('abort', onClientGone);
    let stage: 'accept' | 'render' = 'accept';
    // No workflow worker accepts the update within this time: no worker runs (the update would wait for one).
    const noWorker = setTimeout(() => stage === 'accept' && abort.abort(), this.options.noWorkerAfterMs ?? 15_000);
    const timer = setTimeout(() => abort.abort(), waitMs);
    try {
      return await client.withAbortSignal(abort.signal, async () => {
        const update = await client.workflow.startUpdateWithStart<Workflow, RefreshImageAnswer, []>(REFRESH_IMAGE_UPDATE, {
          args: [],
          waitForStage: 'ACCEPTED',
          startWorkflowOperation,
        });
        stage = 'render';
        return update.result();
      });
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && isErrorCode(error.cause.type)) {
        throw new AppError(error.cause.type, error.cause.message);
      }
      if (error instanceof WorkflowUpdateFailedError) throw new AppError('internal_error', 'The image could not be rendered; please try again later.');
      if (abort.signal.aborted && !signal?.aborted) {
        if (stage === 'accept') throw new AppError('service_unavailable', 'No worker is processing jobs right now; please try again later.');
        throw new AppError('processing_timeout', 'The static image was not rendered within the time limit; it will be served as soon as it is done.');
      }
      throw new AppError('service_unavailable', UNAVAILABLE);
    } finally {
      clearTimeout(noWorker);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onClientGone);
    }
  }

  /**
   * Tells the map's map-image workflow that the map was saved (starting the workflow if none
   * runs: a signal-with-start), without waiting for the render. Resolves once Temporal has it.
   */
  async mapSaved(input: MapImageInput): Promise<void> {
    const client = await this.client();
    await client.workflow.signalWithStart(WORKFLOW_TYPES.mapImage, {
      workflowId: mapImageWorkflowId(input.mapId),
      taskQueue: this.options.taskQueue,
      args: [input],
      signal: MAP_SAVED_SIGNAL,
      signalArgs: [],
    });
  }

  async close(): Promise<void> {
    if (this.options.sharedConnection) return; // the worker's to close
    const client = await this.clientPromise?.catch(() => undefined);
    await client?.connection.close();
  }
}
