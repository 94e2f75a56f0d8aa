import { afterEach, describe, expect, it, vi } from 'vitest';
import { workerLogger } from '../../workers/logger.js';
import { badInput } from '../../workflows/activityFailures.js';
import { processingTimeout } from '../../workflows/processingLimit.js';

afterEach(() => vi.restoreAllMocks());

/** What the logger writes for one entry. */
function written(message: string, error: unknown): string {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  workerLogger('WARN').warn(message, { error });
  vi.restoreAllMocks();
  return lines.join('');
}

describe('the worker logger', () => {
  it('leaves out workflows failing on bad input, and keeps every other failure', () => {
    // As they reach the logger from the workflow sandbox: message and stack only.
    const asLogged = (error: Error) => Object.assign(new Error(error.message), { stack: error.stack });
    expect(written('Workflow failed', asLogged(badInput('the file is empty', 'invalid_file')))).toBe('');
    expect(written('Workflow failed', asLogged(processingTimeout(120_000)))).toBe('');
    expect(written('Workflow failed', new Error('a bug'))).toMatch(/\[WARN\] Workflow failed .*a bug/s);
    expect(written('Activity failed', new Error('database down'))).toMatch(/Activity failed/);
  });
});
