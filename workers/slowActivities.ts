// TEST_SLOW_ACTIVITY_MS (tests only): the file and media activities of this worker wait that long
// before their work, so a test can stop a real process while an activity is in flight
// (test/integration/graceful-shutdown.test.ts). The wait ends early when the activity is
// cancelled, as real work does. Unset in production: no hooks at all.
import type { FaultHooks } from '../activities/deps.js';

export function slowActivities(delayMs: number | undefined, log: (line: string) => void = (line) => console.log(line)): FaultHooks | undefined {
  if (!delayMs) return undefined;
  const wait = (signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      log(`TEST_SLOW_ACTIVITY_MS: an activity waits ${delayMs} ms before its work`);
      if (signal.aborted) return reject(new Error('the activity was cancelled'));
      const timer = setTimeout(resolve, delayMs);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason instanceof Error ? signal.reason : new Error('the activity was cancelled'));
        },
        { once: true },
      );
    });
  return { beforeParse: wait, beforeMedia: wait };
}
