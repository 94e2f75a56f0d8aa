// The processing limit of a file request, as a deadline fixed when the workflow starts. The
// activities that parse and write at once (uploadDuringParse, appendDuringParse) get the
// deadline and keep it themselves. Histories from before them parse against a workflow timer
// (withProcessingLimit): the work runs in its own cancellation scope; when the timer fires
// first, the scope is cancelled (the heartbeating activity sees it) and the workflow fails
// with processing_timeout. The final database write gets the same deadline and enforces it
// itself (PostgreSQL cancels a statement that would run past it and the transaction rolls back
// whole), so a map is never written after its request was answered with a timeout.
import { ApplicationFailureCategory } from '@temporalio/common';
import { ApplicationFailure, CancellationScope, sleep } from '@temporalio/workflow';

const TIMED_OUT = Symbol('timed out');

/** Epoch ms by which the request must be done (workflow time), or null: no limit. */
export function deadlineOf(limitMs: number | null): number | null {
  return limitMs === null ? null : Date.now() + limitMs;
}

/** The processing limit's failure (BENIGN; workers/logger.ts knows this function's name). */
export function processingTimeout(limitMs: number): ApplicationFailure {
  const seconds = Math.round(limitMs / 1000);
  return ApplicationFailure.create({
    message: `Processing the file took longer than the limit of ${seconds} second${seconds === 1 ? '' : 's'}.`,
    type: 'processing_timeout',
    nonRetryable: true,
    category: ApplicationFailureCategory.BENIGN,
  });
}

export async function withProcessingLimit<T>(deadline: number | null, limitMs: number | null, work: () => Promise<T>): Promise<T> {
  if (deadline === null || limitMs === null) return work();
  const workScope = new CancellationScope();
  const timerScope = new CancellationScope();
  const result = workScope.run(work);
  const timer = timerScope.run(() => sleep(Math.max(deadline - Date.now(), 1))).then(
    () => TIMED_OUT,
    () => undefined, // cancelled because the work finished first
  );
  const winner = await Promise.race([result, timer]);
  if (winner === TIMED_OUT) {
    workScope.cancel();
    result.catch(() => undefined);
    throw processingTimeout(limitMs);
  }
  timerScope.cancel();
  return winner as T;
}
