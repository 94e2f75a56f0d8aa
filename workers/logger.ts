// The worker processes' Temporal logger: the SDK's, at the configured level, except that a
// workflow failing on bad input (the client is told why; nothing is wrong with the service) is
// not a warning with a stack trace for every refused file. The SDK already logs such activity
// failures (BENIGN) at debug level. A workflow's failure reaches this logger from the workflow
// sandbox with its message and stack only (no type or category), so it is told by where it was
// made: workflows/activityFailures.ts `badInput` and workflows/processingLimit.ts `processingTimeout`.
import { format } from 'node:util';
import { DefaultLogger, type LogEntry, type LogLevel } from '@temporalio/worker';

const MADE_FOR_BAD_INPUT = /\n\s+at (badInput|processingTimeout) /;

const badInput = (error: unknown): boolean => MADE_FOR_BAD_INPUT.test(String((error as { stack?: unknown } | undefined)?.stack ?? ''));

function write({ level, timestampNanos, message, meta }: LogEntry): void {
  const time = new Date(Number(timestampNanos / 1_000_000n)).toISOString();
  process.stderr.write(`${time} [${level}] ${message}${meta === undefined ? '' : ` ${format(meta)}`}\n`);
}

export function workerLogger(level: LogLevel): DefaultLogger {
  const debug = level === 'TRACE' || level === 'DEBUG';
  return new DefaultLogger(level, (entry) => {
    if (entry.message === 'Workflow failed' && badInput(entry.meta?.error) && !debug) return;
    write(entry);
  });
}
