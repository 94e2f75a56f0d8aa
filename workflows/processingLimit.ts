// The processing limit as a workflow timer: the work runs in its own cancellation scope; when
// the timer fires first, the scope is cancelled (the heartbeating activity sees it) and the
// workflow fails with processing_timeout.
import { ApplicationFailure, CancellationScope, sleep } from '@temporalio/workflow';

const TIMED_OUT = Symbol('timed out');

export async function withProcessingLimit<T>(limitMs: number | null, work: () => Promise<T>): Promise<T> {
  if (limitMs === null) return work();
  const workScope = new CancellationScope();
  const timerScope = new CancellationScope();
  const result = workScope.run(work);
  const timer = timerScope.run(() => sleep(limitMs)).then(
    () => TIMED_OUT,
    () => undefined, // cancelled because the work finished first
  );
  const winner = await Promise.race([result, timer]);
  if (winner === TIMED_OUT) {
    workScope.cancel();
    result.catch(() => undefined);
    const seconds = Math.round(limitMs / 1000);
    throw ApplicationFailure.nonRetryable(
      `Processing the file took longer than the limit of ${seconds} second${seconds === 1 ? '' : 's'}.`,
      'processing_timeout',
    );
  }
  timerScope.cancel();
  return winner as T;
}
