// Entry of the description renderer's thread: worker threads do not inherit the TypeScript loader
// of the main process, so register tsx here before loading the thread's TypeScript code.
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
