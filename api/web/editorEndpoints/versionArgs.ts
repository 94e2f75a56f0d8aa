// What the History's endpoints read from their address: the version's number, and a page of the
// list (`?before={revision}&limit={1–200}`, 100 by default).
import type { Context } from 'koa';
import { AppError } from '../../../lib/errors.js';

/** Versions a page of the History lists by default, and at most. */
const VERSIONS_PAGE = 100;
const VERSIONS_PAGE_MAX = 200;

/** A whole number from 1 to `max` written in digits, or invalid_arguments with `refusal`. */
function wholeNumber(text: unknown, max: number, refusal: string): number {
  const value = typeof text === 'string' && /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
  if (!(Number.isSafeInteger(value) && value >= 1 && value <= max)) throw new AppError('invalid_arguments', refusal);
  return value;
}

export const versionId = (ctx: Context): number => wholeNumber(ctx.params.version, Number.MAX_SAFE_INTEGER, 'A version is named by its number.');

/** `?before={revision}` and `?limit=` of the versions list. */
export function versionsPage(ctx: Context): { before?: number; limit: number } {
  const { before, limit } = ctx.query;
  return {
    before: before === undefined ? undefined : wholeNumber(before, Number.MAX_SAFE_INTEGER, 'before must be a whole number of 1 or more.'),
    limit: limit === undefined ? VERSIONS_PAGE : wholeNumber(limit, VERSIONS_PAGE_MAX, `limit must be a whole number from 1 to ${VERSIONS_PAGE_MAX}.`),
  };
}

export const noVersion = () => new AppError('invalid_arguments', 'This map has no such version: it may be older than the versions kept.');
