// Entry of a parser thread: worker threads do not inherit the TypeScript loader of the main
// process, so register tsx here before loading the thread's TypeScript code.
//
// No forced collection after each file: the parsers stream, so a file leaves little behind, and
// a full collection between files cost the next XLSX parse about 20% (measured: 390 → 330 ms for
// 50,000 rows) at no gain in peak memory over four files in a row of each format.
import { register } from 'tsx/esm/api';

register();
const { parseInThread } = await import('./parserThread.ts');

export default parseInThread;
