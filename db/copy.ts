// COPY both ways for node-postgres (pg-copy-streams), and what stands in for it on PGlite:
// feature rows stream into map_features, and rows of one text column stream out (binary format:
// the bytes as they are stored, no escaping to undo). A reader that stops early gets its
// connection discarded, since it is left in the middle of the COPY.
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Knex } from 'knex';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { ROW_COLUMNS } from '../lib/formats/featureRows.js';
import type { RowLines } from '../lib/maps.js';
import { ABANDONED_COPY, usesPg, type Db } from './connection.js';
import { translateDbError } from './errors.js';

type PooledClient = pg.Client & { __knex__disposed?: unknown };


/**
 * Bytes of row lines PGlite gets per COPY. It has no COPY stream: each COPY reads a Blob (its
 * `/dev/blob`), so the rows go in a few megabytes at a time (a 140,000-row import as batches of
 * INSERTs took 3.7× ogr2ogr's time).
 */
const PGLITE_COPY_BYTES = 4 * 1024 * 1024;

/** What of PGlite's interface the COPY from a Blob uses. */
interface PgliteCopy {
  query(sql: string, params: unknown[], options: { blob: Blob }): Promise<unknown>;
}

/** Puts a prefix in front of every line of text that comes in chunks (lines may be cut anywhere between chunks). */
class LinePrefix {
  private atLineStart = true;
  lines = 0;

  constructor(private readonly prefix: Buffer) {}

  apply(chunk: Buffer | string): Buffer {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const parts: Buffer[] = [];
    let start = 0;
    if (this.atLineStart && bytes.length > 0) parts.push(this.prefix);
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) {
      this.lines++;
      parts.push(bytes.subarray(start, at + 1));
      start = at + 1;
      if (start < bytes.length) parts.push(this.prefix);
    }
    parts.push(bytes.subarray(start));
    if (bytes.length > 0) this.atLineStart = bytes[bytes.length - 1] === 0x0a;
    return Buffer.concat(parts);
  }
}

class LinePrefixer extends Transform {
  readonly prefix: LinePrefix;

  constructor(prefix: Buffer) {
    super();
    this.prefix = new LinePrefix(prefix);
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    done(null, this.prefix.apply(chunk));
  }
}

const copyFeaturesSql = (source: string): string => `copy map_features (map_id, ${ROW_COLUMNS.join(', ')}) from ${source}`;

/**
 * Feature rows (lines of lib/formats/featureRows.ts, each ending in a line break) into
 * map_features for one map with COPY: streamed on PostgreSQL, a few megabytes of lines per COPY
 * on PGlite. Returns how many rows went in; with `expected`, a count that differs fails the
 * transaction (a document file that lost lines never becomes a map's content).
 */
export async function copyFeatureRows(trx: Knex.Transaction, mapId: number, lines: RowLines, expected?: number): Promise<number> {
  if (!Number.isSafeInteger(mapId)) throw new Error(`not a map id: ${mapId}`);
  const written = await copyLines(trx, Buffer.from(`${mapId}\t`), lines);
  if (expected !== undefined) checkRowsWritten(written, expected);
  return written;
}

/** Fails the transaction when the rows written are not the features parsed (a file that lost lines is never a map's content). */
export function checkRowsWritten(written: number, expected: number): void {
  if (written !== expected) throw new Error(`${written} feature rows written for ${expected} features`);
}

/**
 * Row lines for a COPY in a transaction that stays open while they are made (a file streamed as
 * it is parsed): as they come on PostgreSQL, where the transaction holds one of the pool's
 * connections. On PGlite, whose one connection serves every request, the transaction must hold
 * it for the write only and never through a parse (other users wait no longer than for the
 * write): the streamed lines are read to their end and dropped (the parser thread sends a bounded
 * number ahead, rowCredit.ts), and the same lines are then read from where the parser also wrote
 * them, its document file (`again`), so that no file's rows are gathered in memory. A parse that
 * fails fails here, before any transaction.
 */
export async function linesForOpenTransaction(db: Db, lines: RowLines, again: () => Promise<RowLines>): Promise<RowLines> {
  if (usesPg(db)) return lines;
  for await (const _chunk of lines);
  return again();
}

async function copyLines(trx: Knex.Transaction, prefix: Buffer, lines: RowLines): Promise<number> {
  if (!usesPg(trx)) return copyIntoPglite(trx, prefix, lines);
  const connection = (await trx.client.acquireConnection()) as pg.Client;
  const prefixer = new LinePrefixer(prefix);
  await pipeline(Readable.from(lines), prefixer, connection.query(copyFrom(copyFeaturesSql('stdin'))));
  return prefixer.prefix.lines;
}

async function copyIntoPglite(trx: Knex.Transaction, prefix: Buffer, lines: RowLines): Promise<number> {
  // The transaction's connection: PGlite itself (it has one).
  const pglite = (await trx.client.acquireConnection()) as PgliteCopy;
  const lineStarts = new LinePrefix(prefix);
  let parts: Buffer[] = [];
  let bytes = 0;
  const send = async () => {
    try {
      await pglite.query(copyFeaturesSql(`'/dev/blob'`), [], { blob: new Blob(parts as Uint8Array<ArrayBuffer>[]) });
    } catch (error) {
      throw translateDbError(error);
    }
  };
  for await (const chunk of lines) {
    const text = lineStarts.apply(chunk);
    bytes += text.length;
    const end = bytes >= PGLITE_COPY_BYTES ? text.lastIndexOf(0x0a) + 1 : 0;
    if (end === 0) {
      parts.push(text); // under the size, or no line ends in it yet
      continue;
    }
    parts.push(text.subarray(0, end));
    await send();
    parts = [text.subarray(end)];
    bytes = text.length - end;
  }
  if (bytes > 0) await send();
  return lineStarts.lines;
}

/** Binary COPY: 11-byte signature, flags, header extension length; then per row a field count. */
const HEADER_BYTES = 11 + 4 + 4;

/**
 * Reads COPY … (format binary) of one text column: the bytes of each value, in pieces as they
 * arrive (a value may be cut anywhere between chunks), and the end of each value.
 */
class BinaryTextRows {
  private skip = HEADER_BYTES;
  /** Bytes of the current value still to come. */
  private left = 0;
  private pending: Buffer | null = null;
  private done = false;

  /**
   * Takes a chunk of the COPY's data; `piece` gets where parts of values are in it (no buffer is
   * made per row), `end` follows each value's last part.
   */
  push(chunk: Buffer, piece: (source: Buffer, start: number, end: number) => void, end: () => void): void {
    const bytes = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let at = 0;
    while (at < bytes.length && !this.done) {
      if (this.skip > 0) {
        const take = Math.min(this.skip, bytes.length - at);
        this.skip -= take;
        at += take;
      } else if (this.left > 0) {
        const length = Math.min(this.left, bytes.length - at);
        this.left -= length;
        piece(bytes, at, at + length);
        at += length;
        if (this.left === 0) end();
      } else if (bytes.length - at < 6) {
        // A row starts with its field count (2 bytes; -1 ends the data) and its one field's length (4 bytes; -1: NULL).
        this.pending = Buffer.from(bytes.subarray(at));
        return;
      } else if (bytes.readInt16BE(at) === -1) {
        this.done = true;
      } else {
        const length = bytes.readInt32BE(at + 2);
        at += 6;
        if (length > 0) this.left = length;
        else if (length === 0) end();
      }
    }
  }
}

/**
 * How far a COPY out reads ahead of its consumer: while the consumer writes a piece to a slow
 * peer (a client's socket), PostgreSQL goes on sending instead of waiting for the next read.
 */
export const READ_AHEAD_BYTES = 1024 * 1024;

/**
 * The chunks of `copy (<sql>) to stdout with (format binary)`, on a connection of the pool (or
 * the transaction's). A reader that stops early leaves the connection in the middle of the
 * COPY: it is closed, and marked so that the pool discards it.
 */
async function* copyOut(db: Db | Knex.Transaction, sql: string): AsyncGenerator<Buffer> {
  let connection: PooledClient;
  try {
    connection = (await db.client.acquireConnection()) as PooledClient;
  } catch (error) {
    throw translateDbError(error);
  }
  let finished = false;
  try {
    yield* connection.query(copyTo(`copy (${sql}) to stdout with (format binary)`, { highWaterMark: READ_AHEAD_BYTES })) as AsyncIterable<Buffer>;
    finished = true;
  } catch (error) {
    throw translateDbError(error);
  } finally {
    if (!finished) {
      // After knex's own mark for a closed connection, so the pool discards it.
      await connection.end().catch(() => {});
      connection.__knex__disposed = ABANDONED_COPY;
    }
    await db.client.releaseConnection(connection);
  }
}

/**
 * The values of a query's one text column, row by row, as stored (`sql` must select exactly one
 * column; it is run as given, so it may only hold values the caller made safe). PostgreSQL sends
 * them with COPY in binary format as they come; PGlite (inside this process anyway) answers the
 * query at once.
 */
export async function* textRows(db: Db | Knex.Transaction, sql: string): AsyncGenerator<Buffer> {
  if (!usesPg(db)) {
    const result = await db.raw(sql);
    for (const row of result.rows as Record<string, string>[]) yield Buffer.from(Object.values(row)[0]!);
    return;
  }
  const rows = new BinaryTextRows();
  let parts: Buffer[] = [];
  let done: Buffer[] = [];
  for await (const chunk of copyOut(db, sql)) {
    rows.push(
      chunk,
      (source, start, end) => parts.push(source.subarray(start, end)),
      () => {
        done.push(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
        parts = [];
      },
    );
    yield* done;
    done = [];
  }
}

/**
 * The values of a query's one text column joined by `separator`, in chunks as PostgreSQL sends
 * them (`sql` as for textRows; PostgreSQL only). The values are never split into objects of
 * their own: a 200,000-feature map leaves one buffer per network read.
 */
export async function* joinedTextRows(db: Db | Knex.Transaction, sql: string, separator: string): AsyncGenerator<Buffer> {
  const between = Buffer.from(separator);
  if (between.length > 6) throw new Error('a separator longer than the 6 bytes of framing it replaces');
  const rows = new BinaryTextRows();
  let first = true;
  let atValueStart = true;
  for await (const chunk of copyOut(db, sql)) {
    // What a chunk holds comes out of one copy into one buffer: each row's 6 bytes of framing
    // make room for a separator (on a 200,000-row map a buffer per row cost more than the COPY).
    const out = Buffer.allocUnsafe(chunk.length + 6 + between.length);
    let length = 0;
    const separate = () => {
      if (!first) length += between.copy(out, length);
      first = false;
    };
    rows.push(
      chunk,
      (source, start, end) => {
        if (atValueStart) separate();
        atValueStart = false;
        length += source.copy(out, length, start, end);
      },
      () => {
        if (atValueStart) separate(); // an empty value
        atValueStart = true;
      },
    );
    if (length > 0) yield out.subarray(0, length);
  }
}
