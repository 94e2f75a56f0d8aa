// Activity interceptors (registered by createWorker.ts): every log line of an activity carries
// the request id its workflow passed in a header (workflows/requestContext.ts) and the user and
// map its input names, beside the SDK's own attributes (workflow_id, activity_type, attempt …);
// and each execution ends with one info line, "Activity finished", saying how (completed,
// failed with its error_code, cancelled) and how long it took. The SDK's own lifecycle lines
// are at debug level.
import { ApplicationFailure, CancelledFailure, defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { isErrorCode } from '../lib/errors.js';
import { REQUEST_ID_HEADER, SANE_REQUEST_ID } from '../lib/observability/requestId.js';

/** The ids an activity's input names (one object parameter per activity): numbers only. */
function subjectOf(input: unknown): Record<string, number> {
  if (typeof input !== 'object' || input === null) return {};
  const { userId, ownerId, mapId } = input as { userId?: unknown; ownerId?: unknown; mapId?: unknown };
  const user = typeof userId === 'number' ? userId : typeof ownerId === 'number' ? ownerId : undefined;
  return { ...(user !== undefined ? { user_id: user } : {}), ...(typeof mapId === 'number' ? { map_id: mapId } : {}) };
}

function requestIdOf(header: Parameters<typeof defaultPayloadConverter.fromPayload>[0] | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const value = defaultPayloadConverter.fromPayload(header);
    return typeof value === 'string' && SANE_REQUEST_ID.test(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function outcomeOf(error: unknown): Record<string, unknown> {
  if (error instanceof CancelledFailure) return { outcome: 'cancelled' };
  const code = error instanceof ApplicationFailure && isErrorCode(error.type) ? error.type : 'internal_error';
  return { outcome: 'failed', error_code: code };
}

export const activityRequestContext: ActivityInterceptorsFactory = (ctx) => {
  const fields: Record<string, unknown> = {};
  return {
    inbound: {
      async execute(input, next) {
        const requestId = requestIdOf(input.headers[REQUEST_ID_HEADER]);
        if (requestId) fields.request_id = requestId;
        Object.assign(fields, subjectOf(input.args[0]));
        const start = process.hrtime.bigint();
        const durationMs = () => Math.round(Number(process.hrtime.bigint() - start) / 1e6);
        try {
          const result = await next(input);
          ctx.log.info('Activity finished', { outcome: 'completed', duration_ms: durationMs() });
          return result;
        } catch (error) {
          ctx.log.info('Activity finished', { ...outcomeOf(error), duration_ms: durationMs() });
          throw error;
        }
      },
    },
    outbound: {
      getLogAttributes: (input, next) => next({ ...input, ...fields }),
    },
  };
};
