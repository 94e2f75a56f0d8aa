// Large JSON documents go into PostgreSQL without being held whole in this process: the text
// streams in with COPY into a temporary table (one row, parsed into jsonb by the server as it
// arrives), and the statement that needs the value reads it from there, inside the same
// transaction. PGlite (embedded, in this process anyway) gets the text as one parameter.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Knex } from 'knex';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** JSON text in pieces, in order. */
export type JsonText = AsyncIterable<Buffer | string>;

/** Where the staged value is, for the statement that uses it: `select doc from <STAGED_JSON>`. */
export const STAGED_JSON = 'pg_temp.staged_json';

const usesPg = (db: Knex | Knex.Transaction): boolean => db.client.config?.client === 'pg';

const lz4ByClient = new WeakMap<object, Promise<boolean>>();

/** Whether the server compresses with lz4 (faster than the default pglz for large values). */
function lz4Available(trx: Knex.Transaction): Promise<boolean> {
  const key = trx.client.config as object;
  let known = lz4ByClient.get(key);
  if (known === undefined) {
    known = trx
      .raw("select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)")
      .then((result: { rows: unknown[] }) => result.rows.length > 0);
    lz4ByClient.set(key, known);
    known.catch(() => lz4ByClient.delete(key)); // asked again next time
  }
  return known;
}

// COPY's text format: a backslash, line break, carriage return or tab in a value is escaped.
const SPECIAL = [0x5c, 0x0a, 0x0d, 0x09];
const ESCAPED: Record<number, string> = { 0x5c: '\\\\', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

function escapeForCopy(bytes: Buffer): Buffer {
  if (SPECIAL.every((byte) => bytes.indexOf(byte) === -1)) return bytes;
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = 0; at < bytes.length; at++) {
    const escaped = ESCAPED[bytes[at] as number];
    if (escaped === undefined) continue;
    parts.push(bytes.subarray(start, at), Buffer.from(escaped));
    start = at + 1;
  }
  parts.push(bytes.subarray(start));
  return Buffer.concat(parts);
}

async function* copyRow(text: JsonText, counted: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const chunk of text) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    counted.bytes += bytes.length;
    yield escapeForCopy(bytes);
  }
  yield Buffer.from('\n');
}

/**
 * Puts the JSON text, as jsonb, where STAGED_JSON finds it until the transaction ends, and
 * returns how many bytes the text had. Throws the server's error when the text is not JSON
 * (the caller only stages text it wrote itself).
 */
export async function stageJson(trx: Knex.Transaction, text: JsonText): Promise<number> {
  const compression = (await lz4Available(trx)) ? ' compression lz4' : '';
  await trx.raw(`create temp table if not exists staged_json (doc jsonb${compression}) on commit delete rows`);
  if (!usesPg(trx)) {
    let whole = '';
    for await (const chunk of text) whole += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    await trx.raw(`insert into ${STAGED_JSON} (doc) values (?::jsonb)`, [whole]);
    return Buffer.byteLength(whole);
  }
  const connection = (await trx.client.acquireConnection()) as pg.Client;
  const counted = { bytes: 0 };
  await pipeline(Readable.from(copyRow(text, counted)), connection.query(copyFrom(`copy ${STAGED_JSON} (doc) from stdin`)));
  return counted.bytes;
}
