// Starts a parser thread with a memory cap and ends it when the activity is cancelled (the
// workflow's processing limit) so the CPU is given back at once.
import { Worker } from 'node:worker_threads';
import { AppError } from '../lib/errors.js';
import type { ImportFileType } from '../lib/jobContracts.js';
import type { ParserThreadMessage } from './parserThread.js';

const THREAD_URL = new URL('./parserThread.bootstrap.mjs', import.meta.url);
/** Heap for one parse: a 15 MB file becomes at most a few hundred MB of objects. */
const MAX_HEAP_MB = 1536;

export type ParsedFile = Extract<ParserThreadMessage, { ok: true }>;

export function runParser(fileType: ImportFileType, bytes: Uint8Array, signal: AbortSignal): Promise<ParsedFile> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(THREAD_URL, {
      workerData: { fileType, bytes },
      resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    const onAbort = () => {
      void worker.terminate();
      reject(signal.reason ?? new Error('parse cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal.removeEventListener('abort', onAbort);
    worker.once('message', (message: ParserThreadMessage) => {
      settle();
      void worker.terminate();
      if (message.ok) resolve(message);
      else reject(new AppError(message.code, message.message));
    });
    worker.once('error', (error: Error & { code?: string }) => {
      settle();
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        reject(new AppError('file_too_complex', 'The file needs more memory to process than one import may use.'));
      } else reject(error);
    });
    worker.once('exit', (code) => {
      settle();
      if (code !== 0) reject(new Error(`parser thread exited with code ${code}`));
    });
  });
}
