// The Temporal SDK's logger (Runtime.install({ logger }), workers/runtime.ts): every line the SDK,
// a workflow's `log` or an activity's `log` writes goes to the service's pino logger
// (lib/observability/logger.ts) as JSON, at pino's level (LOG_LEVEL), with the SDK's
// attributes in snake_case (workflow_id, workflow_type, activity_type, attempt, task_queue …;
// request_id, user_id and map_id from our interceptors). The activity's task token is left out:
// it is a capability (it can complete the activity), not information. The SDK's own info lines
// are written at debug level (as the DefaultLogger at WARN used to hide them): at LOG_LEVEL=info
// a worker logs what workflows and activities log, and the SDK's warnings and errors.
//
// A workflow failing on bad input (the client is told why; nothing is wrong with the service) is
// not a warning with a stack trace for every refused file: it is written at debug level, without
// the stack. The SDK already logs such activity failures (BENIGN) at debug level. A workflow's
// failure reaches this logger from the workflow sandbox with its message and stack only (no type
// or category), so it is told by where it was made: workflows/activityFailures.ts `badInput` and
// workflows/processingLimit.ts `processingTimeout`.
import type { Logger, LogLevel, LogMetadata } from '@temporalio/common';
import { LogTimestamp } from '@temporalio/worker';
import type { Level } from 'pino';
import { errorFields, log } from '../lib/observability/logger.js';

const MADE_FOR_BAD_INPUT = /\n\s+at (badInput|processingTimeout) /;

const badInput = (error: unknown): boolean => MADE_FOR_BAD_INPUT.test(String((error as { stack?: unknown } | undefined)?.stack ?? ''));

const LEVELS: Record<LogLevel, Level> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

const LEFT_OUT = new Set(['taskToken']);

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The SDK's metadata as log fields: snake_case names, errors through errorFields (as `err`). */
function fieldsOf(meta: LogMetadata | undefined, withStack: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  // When the line was made (the SDK buffers lines and sorts them by it before they get here).
  const nanos = (meta as { [LogTimestamp]?: unknown } | undefined)?.[LogTimestamp];
  if (typeof nanos === 'bigint') fields.time = new Date(Number(nanos / 1_000_000n)).toISOString();
  for (const [name, value] of Object.entries(meta ?? {})) {
    if (LEFT_OUT.has(name) || value === undefined) continue;
    if (name === 'error') {
      const { stack: _stack, ...short } = errorFields(value);
      fields.err = withStack ? errorFields(value) : short;
    } else {
      fields[snakeCase(name)] = value;
    }
  }
  return fields;
}

/** Lines of our own code (a workflow's or an activity's `log`); the SDK's own are the other components. */
const OUR_CODE = new Set(['workflow', 'activity']);

function write(level: LogLevel, message: string, meta?: LogMetadata): void {
  let pinoLevel = LEVELS[level] ?? 'info';
  // The SDK's own info lines (a workflow bundle built, with webpack's report; worker state changes) are debug here.
  if (pinoLevel === 'info' && !OUR_CODE.has(String(meta?.sdkComponent))) pinoLevel = 'debug';
  // The media and render queues' workers run activities only: by design, not a warning.
  if (message === 'No workflows registered, not polling for workflow tasks') pinoLevel = 'debug';
  const refusedInput = message === 'Workflow failed' && badInput(meta?.error);
  if (refusedInput) pinoLevel = 'debug';
  if (!log.isLevelEnabled(pinoLevel)) return;
  log[pinoLevel](fieldsOf(meta, !refusedInput), message);
}

/** The Logger given to Runtime.install. */
export function temporalLogger(): Logger {
  return {
    log: write,
    trace: (message, meta) => write('TRACE', message, meta),
    debug: (message, meta) => write('DEBUG', message, meta),
    info: (message, meta) => write('INFO', message, meta),
    warn: (message, meta) => write('WARN', message, meta),
    error: (message, meta) => write('ERROR', message, meta),
  };
}
