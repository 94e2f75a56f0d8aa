// JSON bodies up to the upload limit are parsed and validated off the event loop when they are
// large: JSON.parse of a 12 MB body with a million keys, or the validation of a 15 MB GeoJSON
// document, takes seconds of CPU, and on the event loop every other request would wait for it.
// Small bodies (almost all) are read in place, which costs less than handing them to a thread.
import { Piscina } from 'piscina';
import type { z } from 'zod';
import { AppError } from '../lib/errors.js';
import { readArguments } from './arguments.js';
import type { ArgumentResult, ArgumentTask } from './argumentThread.js';
import type { Operation } from './operation.js';

/** Bodies up to this size are read on the event loop (well under a millisecond). */
export const INLINE_BODY_BYTES = 64 * 1024;

let pool: Piscina | undefined;

function threads(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./argumentThread.bootstrap.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: 2,
    idleTimeout: 30_000,
    // A 15 MB GeoJSON document is a few hundred MB of objects while it is checked.
    resourceLimits: { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 16 },
  });
  return pool;
}

/** The validated arguments of a JSON operation's body. */
export async function bodyArguments(operation: Operation, bytes: Buffer): Promise<z.output<Operation['args']>> {
  if (bytes.length <= INLINE_BODY_BYTES) return readArguments(operation.args, bytes, 'body');
  const task: ArgumentTask = { module: operation.module, bytes };
  let result: ArgumentResult;
  try {
    result = (await threads().run(task)) as ArgumentResult;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new AppError('file_too_complex', 'The request body needs more memory to process than one request may use.');
    }
    throw error;
  }
  if (!result.ok) throw new AppError(result.code, result.message);
  return result.args;
}

export async function closeArgumentThreads(): Promise<void> {
  await pool?.destroy();
  pool = undefined;
}
