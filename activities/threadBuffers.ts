// For the parser and render threads (parserThread.ts, renderThread.ts): a thread's isolate frees
// large ArrayBuffers (a file window grown to a long feature, compact coordinates, a spreadsheet's
// string table, a canvas's pixels) only in a collection whose sweeping gets turns of the thread's
// event loop to finish; a thread left idle after a large job would otherwise keep them for good
// (measured: 63 MB per thread after one 19 MB GeoJSON; 1.78 GB idle after a burst before the large
// readers). So after such a job the thread collects, giving it those turns. The collector is
// reached through V8's --expose-gc, for contexts made after the flag is set.
import { setImmediate as nextTurn } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
/** ArrayBuffers of the isolate above which a finished job is followed by a collection. */
const RELEASE_AFTER_BYTES = 16 * 1024 * 1024;

/** Collects (three rounds, a turn of the event loop each) when the isolate holds large buffers. */
export async function releaseLargeBuffers(): Promise<void> {
  if (process.memoryUsage().arrayBuffers < RELEASE_AFTER_BYTES) return;
  for (let round = 0; round < 3; round++) {
    collect();
    await nextTurn();
  }
}
