// What the service knows about the HTTP request being handled, kept on its Koa context by
// middleware/accessLog.ts: its id, which JobGateway puts in the memo of the workflow the request
// starts, and what the access log line reports that only deeper code learns (the workflow's
// id). Passed explicitly rather than through an AsyncLocalStorage: on Node 20 one turns on
// promise hooks for every promise of the process (measured: most of the logging's cost on a
// map/list loop).
import type { Context } from 'koa';

export interface RequestContext {
  /** The request's X-Request-Id (the client's, when sane, or a new one). */
  requestId: string;
  /** The workflow the request started or joined. */
  workflowId?: string;
}

interface State {
  requestContext?: RequestContext;
}

export function attachRequestContext(ctx: Context, context: RequestContext): void {
  (ctx.state as State).requestContext = context;
}

/** The request's context; undefined for a context the access log middleware did not see (none in the app). */
export const requestContextOf = (ctx: Context | undefined): RequestContext | undefined => (ctx?.state as State | undefined)?.requestContext;
