// Runs one parser in a worker thread, so a large or hostile file neither blocks the worker's
// event loop (heartbeats, timers, other activities) nor takes the process down with it.
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../lib/errors.js';
import { PARSERS } from '../lib/formats/index.js';
import type { ImportFileType } from '../lib/jobContracts.js';

export type ParserThreadMessage =
  | { ok: true; json: string; features: number; skipped: { reason: string; line?: number }[] }
  | { ok: false; code: AppError['code']; message: string };

const { fileType, bytes } = workerData as { fileType: ImportFileType; bytes: Uint8Array };

function run(): ParserThreadMessage {
  const parser = PARSERS[fileType];
  if (!parser) return { ok: false, code: 'unsupported_file_type', message: `Importing ${fileType} files is not available yet.` };
  try {
    const { document, skipped } = parser(bytes);
    return { ok: true, json: JSON.stringify(document), features: document.features.length, skipped };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
    if (error instanceof RangeError) {
      return { ok: false, code: 'file_too_complex', message: 'The file is nested too deeply or too large to process.' };
    }
    throw error;
  }
}

parentPort!.postMessage(run());
