// Runs in an argument thread (see argumentThreads.ts): reads one large JSON body against its
// operation's argument schema, off the API's event loop. Only plain results cross back: the
// validated arguments (small, or a prepared document as one string), or the refusal.
import { AppError, type ErrorCode } from '../lib/errors.js';
import { readArguments } from './arguments.js';
import type { Operation } from './operation.js';

export interface ArgumentTask {
  /** The URL of the operation's module (its `operation` export). */
  module: string;
  bytes: Uint8Array;
}

export type ArgumentResult = { ok: true; args: unknown } | { ok: false; code: ErrorCode; message: string };

export async function readInThread({ module, bytes }: ArgumentTask): Promise<ArgumentResult> {
  const { operation } = (await import(module)) as { operation: Operation };
  try {
    return { ok: true, args: readArguments(operation.args, bytes, 'body') };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
