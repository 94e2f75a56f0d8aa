// A map's document read as a stream of its JSON text, so map/get answers a large map without
// holding it (or a copy of it) in this process: PostgreSQL sends the text with COPY in binary
// format (the bytes as they are: no escaping to undo), and each chunk goes on to the client as
// it comes. A reader that stops early (the client went away) gets the connection discarded,
// since it is still in the middle of the COPY. PGlite, inside this process anyway, gets the
// text in one piece.
import type { Knex } from 'knex';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { ABANDONED_COPY, type Db } from './connection.js';
import { translateDbError } from './errors.js';

/** Binary COPY: 11-byte signature, flags, header extension length, then per row a field count and the field's length. */
const HEADER_BYTES = 11 + 4 + 4;
const ROW_PREFIX_BYTES = 2 + 4;

type PooledClient = pg.Client & { __knex__disposed?: unknown };

const usesPg = (db: Knex): boolean => db.client.config?.client === 'pg';

/** The stored document of a map as JSON text, chunk by chunk; nothing when there is no such map. */
export async function* mapDocumentText(db: Db, mapId: number): AsyncGenerator<Buffer> {
  if (!Number.isSafeInteger(mapId)) throw new Error(`not a map id: ${mapId}`);
  if (!usesPg(db)) {
    const row = await db('maps').select(db.raw('geojson::text as text')).where({ id: mapId }).first();
    if (row) yield Buffer.from(row.text as string);
    return;
  }
  let connection: PooledClient;
  try {
    connection = (await db.client.acquireConnection()) as PooledClient;
  } catch (error) {
    throw translateDbError(error);
  }
  let finished = false;
  try {
    // COPY takes no parameters; the id is a checked integer.
    const stream = connection.query(copyTo(`copy (select geojson::text from maps where id = ${mapId}) to stdout with (format binary)`));
    let skip = HEADER_BYTES + ROW_PREFIX_BYTES;
    let left = -1; // bytes of the text still to come; -1 before its length is known
    let lengthBytes = Buffer.alloc(0);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let at = 0;
      if (skip > 0) {
        // The header and the row's field count and length, which may arrive in pieces.
        const take = Math.min(skip, chunk.length);
        const lengthStart = Math.max(0, skip - 4); // the last 4 of the skipped bytes are the text's length
        if (take > lengthStart) lengthBytes = Buffer.concat([lengthBytes, chunk.subarray(lengthStart, take)]);
        skip -= take;
        at = take;
        if (skip > 0) continue;
        left = lengthBytes.readInt32BE(0);
      }
      if (left <= 0) continue; // after the text: the end-of-data marker
      const piece = chunk.subarray(at, at + left);
      left -= piece.length;
      if (piece.length > 0) yield piece;
    }
    finished = true;
  } catch (error) {
    throw translateDbError(error);
  } finally {
    if (!finished) {
      // Stopped in the middle of the COPY: this connection cannot serve another query. Closed,
      // and marked so that the pool discards it (after knex's own mark for a closed connection).
      await connection.end().catch(() => {});
      connection.__knex__disposed = ABANDONED_COPY;
    }
    await db.client.releaseConnection(connection);
  }
}
