// Entry of an argument thread: worker threads do not inherit the TypeScript loader of the main
// process, so register tsx here before loading the thread's TypeScript code.
import { register } from 'tsx/esm/api';

register();
const { readInThread } = await import('./argumentThread.ts');

export default readInThread;
