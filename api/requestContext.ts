// What the service knows about the HTTP request being handled, wherever the handling has got to
// (an AsyncLocalStorage set by middleware/accessLog.ts): its id, which JobGateway puts in the
// memo of the workflow it starts, and what the access log line reports that only deeper code
// learns (the workflow's id).
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  /** The request's X-Request-Id (the client's, when sane, or a new one). */
  requestId: string;
  /** The workflow the request started or joined. */
  workflowId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The request being handled; undefined outside a request (a worker, a script). */
export const currentRequest = (): RequestContext | undefined => storage.getStore();

export const runInRequest = <T>(context: RequestContext, fn: () => T): T => storage.run(context, fn);
