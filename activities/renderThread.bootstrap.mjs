// Entry of a render thread: worker threads do not inherit the TypeScript loader of the main
// process, so register tsx here before loading the thread's TypeScript code (as parserThread).
import { register } from 'tsx/esm/api';

register();
const { renderInThread } = await import('./renderThread.ts');

export default renderInThread;
