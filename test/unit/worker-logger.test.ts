import { LogTimestamp } from '@temporalio/worker';
import { afterEach, describe, expect, it } from 'vitest';
import { divertLogs, setLogLevel } from '../../lib/observability/logger.js';
import { temporalLogger } from '../../workers/logger.js';
import { badInput } from '../../workflows/activityFailures.js';
import { processingTimeout } from '../../workflows/processingLimit.js';

afterEach(() => setLogLevel('info'));

/** The JSON lines the logger writes for one entry, at the given service log level. */
function written(level: 'info' | 'warn' | 'debug', message: string, meta: Record<string, unknown>, as: 'info' | 'warn' = 'warn'): Record<string, unknown>[] {
  const lines: string[] = [];
  setLogLevel(level);
  const restore = divertLogs((line) => lines.push(line));
  try {
    temporalLogger()[as](message, meta);
  } finally {
    restore();
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the worker logger', () => {
  // As failures reach the logger from the workflow sandbox: message and stack only.
  const asLogged = (error: Error) => Object.assign(new Error(error.message), { stack: error.stack });

  it('leaves out workflows failing on bad input, and keeps every other failure', () => {
    expect(written('warn', 'Workflow failed', { error: asLogged(badInput('the file is empty', 'invalid_file')) })).toEqual([]);
    expect(written('warn', 'Workflow failed', { error: asLogged(processingTimeout(120_000)) })).toEqual([]);
    const [bug] = written('warn', 'Workflow failed', { error: new Error('a bug') });
    expect(bug).toMatchObject({ level: 'warn', msg: 'Workflow failed', err: { message: 'a bug' } });
    expect((bug!.err as { stack: string }).stack).toContain('a bug');
    expect(written('warn', 'Activity failed', { error: new Error('database down') })[0]).toMatchObject({ level: 'warn', msg: 'Activity failed' });
  });

  it('writes a bad-input failure at debug level, without its stack', () => {
    const [line] = written('debug', 'Workflow failed', { error: asLogged(badInput('the file is empty', 'invalid_file')) });
    expect(line).toMatchObject({ level: 'debug', msg: 'Workflow failed', err: { message: 'the file is empty' } });
    expect(line!.err).not.toHaveProperty('stack');
  });

  it('keeps the info lines of workflows and activities at info, and the SDK’s own at debug', () => {
    expect(written('info', 'Activity finished', { sdkComponent: 'activity' }, 'info')[0]).toMatchObject({ level: 'info', msg: 'Activity finished' });
    expect(written('info', 'Worker state changed', { sdkComponent: 'worker' }, 'info')).toEqual([]);
    expect(written('debug', 'Worker state changed', { sdkComponent: 'worker' }, 'info')[0]).toMatchObject({ level: 'debug' });
  });

  it('names the SDK attributes in snake_case, keeps the time the line was made, and leaves the task token out', () => {
    const meta = { workflowId: 'upload:1', activityType: 'parseFile', attempt: 2, taskToken: 'c2VjcmV0', request_id: 'r-1', [LogTimestamp]: 1_700_000_000_123_000_000n };
    const [line] = written('warn', 'Activity failed', meta);
    expect(line).toMatchObject({ workflow_id: 'upload:1', activity_type: 'parseFile', attempt: 2, request_id: 'r-1', time: '2023-11-14T22:13:20.123Z' });
    expect(line).not.toHaveProperty('task_token');
    expect(JSON.stringify(line)).not.toContain('c2VjcmV0');
  });
});
