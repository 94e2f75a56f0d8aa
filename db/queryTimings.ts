// Times every query knex runs (also inside transactions, whose events knex repeats on the
// instance) into mps_db_query_duration_seconds, labelled by the statement's first keyword and
// its outcome, never by its text or parameters. openDb attaches it to each connection pool.
// Not counted: BEGIN/COMMIT of knex transactions and COPY streams (copy.ts), which do not go
// through knex's query runner.
import type { Knex } from 'knex';
import { dbDuration, secondsSince } from '../lib/observability/metrics.js';

/** Statement kinds kept as labels; any other first keyword is `other`. */
const STATEMENTS = new Set(['select', 'insert', 'update', 'delete', 'with', 'copy', 'lock', 'set', 'begin', 'commit', 'rollback', 'savepoint', 'create', 'alter', 'drop']);

/** Queries whose answer never came (a stream, a lost connection) are forgotten past this many. */
const MAX_OPEN = 10_000;

interface QueryEvent {
  __knexQueryUid?: string;
  sql?: string;
}

function statementOf(sql: string | undefined): string {
  const word = /^\s*\(?\s*([a-z]+)/i.exec(sql ?? '')?.[1]?.toLowerCase() ?? '';
  return STATEMENTS.has(word) ? word : 'other';
}

const timed = new WeakSet<Knex>();

export function timeQueries(db: Knex): void {
  if (timed.has(db)) return;
  timed.add(db);
  const open = new Map<string, { start: bigint; statement: string }>();
  const finish = (query: QueryEvent | undefined, outcome: 'ok' | 'error') => {
    const uid = query?.__knexQueryUid;
    const started = uid ? open.get(uid) : undefined;
    if (!uid || !started) return;
    open.delete(uid);
    dbDuration.observe({ statement: started.statement, outcome }, secondsSince(started.start));
  };
  db.on('query', (query: QueryEvent) => {
    if (!query.__knexQueryUid) return;
    if (open.size >= MAX_OPEN) open.delete(open.keys().next().value!);
    open.set(query.__knexQueryUid, { start: process.hrtime.bigint(), statement: statementOf(query.sql) });
  });
  db.on('query-response', (_response: unknown, query: QueryEvent) => finish(query, 'ok'));
  db.on('query-error', (_error: unknown, query: QueryEvent) => finish(query, 'error'));
}
