// An operation's arguments from the bytes the client sent (the JSON body, or the argument
// header): strict UTF-8, a JSON object, then the operation's schema. The same function runs on
// the event loop for small bodies and in an argument thread for large ones (argumentThreads.ts).
import type { z } from 'zod';
import { AppError } from '../lib/errors.js';
import { describeZodError } from './schemas.js';

export const ARG_HEADER = 'Service-API-Arg';

export type ArgumentSource = 'body' | 'header';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** invalid_json for a body, invalid_arguments for the header: the code names what was wrong. */
function refused(source: ArgumentSource, message: string): AppError {
  return source === 'body' ? new AppError('invalid_json', message) : new AppError('invalid_arguments', message);
}

const where = (source: ArgumentSource): string => (source === 'body' ? 'The request body' : `The ${ARG_HEADER} header`);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** The JSON object of arguments in `bytes`: an empty body is no arguments. */
export function argumentObject(bytes: Uint8Array, source: ArgumentSource): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes); // a byte order mark is dropped
  } catch {
    throw refused(source, `${where(source)} is not UTF-8 text.`);
  }
  if (text.trim() === '') {
    if (source === 'header') throw refused(source, `Send the arguments as a JSON object in the ${ARG_HEADER} header.`);
    return {};
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refused(source, `${where(source)} is not valid JSON.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refused(source, `${where(source)} must be a JSON object of arguments, not ${kindOf(value)}.`);
  }
  return value;
}

/** Validates the arguments against the operation's schema; the answer to a refusal names the first problem. */
export function validArguments<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError('invalid_arguments', `Invalid arguments: ${describeZodError(parsed.error, value)}.`);
  return parsed.data;
}

export const readArguments = <S extends z.ZodType>(schema: S, bytes: Uint8Array, source: ArgumentSource): z.output<S> =>
  validArguments(schema, argumentObject(bytes, source));
