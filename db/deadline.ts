// A write that must end by a deadline (the processing limit of a file request): before each
// long statement the transaction's statement and lock timeouts are set to the time left, so
// PostgreSQL cancels what would run past it and the transaction rolls back whole. PGlite runs
// in this process without timers: there the time left is checked between statements only.
import type { Knex } from 'knex';
import { TimeLimitReached } from './errors.js';

/** Epoch milliseconds by which the transaction must be done; null: no limit. */
export type Deadline = number | null;

/** Gives the next statements of the transaction the time left; throws when none is. */
export async function timeLeft(trx: Knex.Transaction, deadline: Deadline | undefined): Promise<void> {
  if (deadline === null || deadline === undefined) return;
  const left = Math.floor(deadline - Date.now());
  if (left <= 0) throw new TimeLimitReached();
  // Both in one statement (set_config(…, true) is SET LOCAL).
  await trx.raw("select set_config('statement_timeout', ?, true), set_config('lock_timeout', ?, true)", [String(left), String(left)]);
}

/** The last check before commit: nothing commits after the deadline. */
export function stillInTime(deadline: Deadline | undefined): void {
  if (deadline !== null && deadline !== undefined && Date.now() >= deadline) throw new TimeLimitReached();
}
