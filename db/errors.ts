// Translates PostgreSQL errors into facts the rest of the code can act on, so no SQL text or
// driver error ever travels further than db/.

/** A unique constraint was violated; `constraint` names it (for example users_username_lower). */
export class UniqueViolation extends Error {
  override name = 'UniqueViolation';
  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint} violated`);
  }
}

/**
 * The database refused the data itself: a value over one of its limits (SQLSTATE class 54, such
 * as "total size of jsonb array elements exceeds the maximum"), or text and numbers it cannot
 * hold (class 22, such as NUL characters). Doing the same again fails the same way: never retried.
 */
export class DataRefused extends Error {
  override name = 'DataRefused';
  constructor(
    readonly reason: 'too_large' | 'invalid',
    readonly sqlState: string,
  ) {
    super(reason === 'too_large' ? 'the data is larger than the database stores in one value' : 'the data holds values the database cannot store');
  }
}

/** A statement was cancelled because it ran past the time the caller gave it (statement_timeout, lock_timeout). */
export class TimeLimitReached extends Error {
  override name = 'TimeLimitReached';
  constructor() {
    super('the database write did not finish within the time it was given');
  }
}

/** No database connection became free in time: the service is overloaded for a moment. */
export class DatabaseBusy extends Error {
  override name = 'DatabaseBusy';
  constructor() {
    super('no database connection became free in time');
  }
}

/**
 * The database cannot be reached or dropped the connection (a restart, a failover, an ended
 * backend): nothing about the request, which may be sent again in a moment.
 */
export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable';
  constructor(detail: string) {
    super(`the database cannot be reached (${detail})`);
  }
}

/** Socket errors of a connection to the server, and pg's own words for a connection that was closed. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_LOST = /Connection terminated|Connection ended unexpectedly|is not queryable/;

export function translateDbError(error: unknown): unknown {
  if (error instanceof UniqueViolation || error instanceof DataRefused || error instanceof TimeLimitReached || error instanceof DatabaseUnavailable) return error;
  const e = error as { code?: string; constraint?: string; message?: string; name?: string };
  if (e?.name === 'KnexTimeoutError') return new DatabaseBusy();
  const code = typeof e?.code === 'string' ? e.code : '';
  // Class 08: connection exceptions; 57P01-57P03: the server shut down or is starting up.
  if (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || CONNECTION_LOST.test(e?.message ?? '')) {
    return new DatabaseUnavailable(code || (e?.message ?? '').split(' - ').pop()!.slice(0, 200));
  }
  if (code === '23505') {
    // PGlite does not always fill `constraint`; its message names it in quotes.
    const constraint = e.constraint ?? /"([^"]+)"/.exec(e.message ?? '')?.[1] ?? 'unknown';
    return new UniqueViolation(constraint);
  }
  if (code.startsWith('54')) return new DataRefused('too_large', code);
  if (code.length === 5 && code.startsWith('22')) return new DataRefused('invalid', code);
  // 57014 query_canceled: our statement_timeout; 55P03 lock_not_available: our lock_timeout.
  if (code === '57014' || code === '55P03') return new TimeLimitReached();
  return error;
}

export async function translating<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translateDbError(error);
  }
}

/** A write names an image or marker the map may not use: no such media, or media uploaded by someone who is neither the map's owner nor one of its editors. */
export class MediaNotLinkable extends Error {
  override name = 'MediaNotLinkable';
  constructor(
    readonly kind: 'image' | 'marker',
    readonly mediaId: string,
  ) {
    super(`the ${kind} ${mediaId} may not be used by this map`);
  }
}
