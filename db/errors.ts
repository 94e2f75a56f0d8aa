// Translates PostgreSQL errors into facts the rest of the code can act on, so no SQL text or
// driver error ever travels further than db/.

/** A unique constraint was violated; `constraint` names it (for example users_username_lower). */
export class UniqueViolation extends Error {
  override name = 'UniqueViolation';
  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint} violated`);
  }
}

export function translateDbError(error: unknown): unknown {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') {
    // PGlite does not always fill `constraint`; its message names it in quotes.
    const constraint = e.constraint ?? /"([^"]+)"/.exec(e.message ?? '')?.[1] ?? 'unknown';
    return new UniqueViolation(constraint);
  }
  return error;
}

export async function translating<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translateDbError(error);
  }
}
