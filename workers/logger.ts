// The worker processes' Temporal logger: the SDK's, at the configured level, except that a
// workflow failing on bad input (a BENIGN failure: the client is told why) is not a warning.
// The SDK already logs BENIGN activity failures at debug level; a failed workflow it always
// warns about, with a stack trace, for every refused file.
import { format } from 'node:util';
import { ApplicationFailureCategory } from '@temporalio/common';
import { DefaultLogger, type LogEntry, type LogLevel } from '@temporalio/worker';

/** By its category, not its class: the workflow's failures come from the workflow bundle's own copy of the SDK. */
const benign = (error: unknown): boolean => (error as { category?: unknown } | undefined)?.category === ApplicationFailureCategory.BENIGN;

function write({ level, timestampNanos, message, meta }: LogEntry): void {
  const time = new Date(Number(timestampNanos / 1_000_000n)).toISOString();
  process.stderr.write(`${time} [${level}] ${message}${meta === undefined ? '' : ` ${format(meta)}`}\n`);
}

export function workerLogger(level: LogLevel): DefaultLogger {
  const debug = level === 'TRACE' || level === 'DEBUG';
  return new DefaultLogger(level, (entry) => {
    if (entry.message === 'Workflow failed' && benign(entry.meta?.error) && !debug) return;
    write(entry);
  });
}
