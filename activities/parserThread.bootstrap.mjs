// Entry of a parser thread: worker threads do not inherit the TypeScript loader of the main
// process, so register tsx here before loading the thread's TypeScript code.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { register } from 'tsx/esm/api';

register();
const { parseInThread } = await import('./parserThread.ts');

// After each file, a full collection gives the file's garbage (its bytes, text and objects) back
// at once, instead of letting it pile up over the next files until V8 gets round to it
// (measured: three 15 MB KML files in a row peaked at 90 MB above idle without, 58 MB with).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');

export default async function parse(task) {
  try {
    return await parseInThread(task);
  } finally {
    // After the answer is posted to the caller, not before.
    setImmediate(collectGarbage);
  }
}
