// The worker's command line: `npm run worker -- --queues maps,render` (or `--queues=maps,render`)
// names the task queues this process polls, in place of WORKER_QUEUES; checked by the same rule
// (lib/config.ts). Anything else on the command line is refused with a message saying what it takes.
import { ConfigError } from '../lib/config.js';

const USAGE = 'usage: npm run worker [-- --queues maps,media,render]';

/** The environment the worker's settings are read from, with --queues put in as WORKER_QUEUES. */
export function envWithQueueArgs(args: readonly string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  let queues: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--queues' && index + 1 < args.length) queues = args[++index];
    else if (arg.startsWith('--queues=')) queues = arg.slice('--queues='.length);
    else throw new ConfigError(`The worker does not take "${arg}"; ${USAGE}`);
  }
  return queues === undefined ? env : { ...env, WORKER_QUEUES: queues };
}
