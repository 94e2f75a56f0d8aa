// A whole map as map/get answers it: its settings and members, and its GeoJSON document put
// together from the head and the feature rows — all read in one snapshot (a concurrent append
// is seen whole or not at all). The features' texts go out as PostgreSQL sends them (COPY in
// binary format, joined by commas as they come): nothing parses them, and a large map is never
// held whole in this process. PGlite (inside this process anyway) joins them into one value.
import type { Knex } from 'knex';
import { documentOpening, DOCUMENT_CLOSING } from '../lib/formats/documentFile.js';
import type { MapDetail } from '../lib/maps.js';
import type { Db } from './connection.js';
import { usesPg } from './connection.js';
import { joinedTextRows, READ_AHEAD_BYTES } from './copy.js';
import { translating } from './errors.js';
import { readMapDetail } from './maps.js';

export interface MapDocumentRead {
  detail: MapDetail;
  /** The document's JSON text in pieces. */
  text: AsyncGenerator<Buffer | string>;
  /** Ends the read (its snapshot and connection), whether or not the text was read to its end; again: nothing. */
  close(): Promise<void>;
  /**
   * Bytes worth reading ahead of a client still taking the last piece: on PostgreSQL the server
   * goes on sending meanwhile; on PGlite the text is at hand already, and reading ahead only
   * kept this thread (PGlite's too) from other requests.
   */
  readAheadBytes: number;
  /** The map's revision the document is of (the web editor saves its changes on it). */
  revision: number;
}

/** Pieces of about this size are sent when the texts are at hand (PGlite). */
const PIECE_CHARS = 64 * 1024;

const featuresSql = (mapId: number) => `select feature from map_features where map_id = ${mapId} order by ordinal`; // a checked integer: COPY takes no parameters

async function headOf(trx: Knex.Transaction, mapId: number): Promise<{ head: string; revision: number }> {
  const row = await trx('maps').select('head', 'revision').where({ id: mapId }).first();
  return { head: row.head as string, revision: Number(row.revision) };
}

/** The map with its document, or undefined when there is no such map. */
export async function openMapDocument(db: Db, mapId: number): Promise<MapDocumentRead | undefined> {
  if (!Number.isSafeInteger(mapId)) throw new Error(`not a map id: ${mapId}`);
  return usesPg(db) ? openStreamed(db, mapId) : openInMemory(db, mapId);
}

async function openStreamed(db: Db, mapId: number): Promise<MapDocumentRead | undefined> {
  const trx = await translating(() => db.transaction({ isolationLevel: 'repeatable read', readOnly: true }));
  trx.executionPromise.catch(() => {}); // a rollback after an abandoned COPY fails; the connection is discarded anyway
  let rows: AsyncGenerator<Buffer> | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await rows?.return(undefined); // in the middle of the COPY: ends the connection
    await trx.rollback().catch(() => {});
  };
  try {
    const detail = await translating(() => readMapDetail(trx, mapId));
    if (!detail) {
      await close();
      return undefined;
    }
    const { head, revision } = await translating(() => headOf(trx, mapId));
    // The features in order are what map_features_order holds: an index scan sends the first at
    // once and never sorts. Right after a large import, before the table is analyzed, the
    // planner expected a thousand rows and sorted 200,000 on disk (40 MB) instead: 1.8× slower.
    await translating(() => trx.raw('set local enable_sort = off'));
    // The first features are read here: a failure to start reading is still an error answer.
    rows = joinedTextRows(trx, featuresSql(mapId), ',');
    const first = await rows.next();
    const features = rows;
    const text = (async function* () {
      try {
        yield documentOpening(head);
        if (!first.done) {
          yield first.value;
          yield* features;
        }
        yield DOCUMENT_CLOSING;
      } finally {
        await close();
      }
    })();
    return { detail, text, close, readAheadBytes: READ_AHEAD_BYTES, revision };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openInMemory(db: Db, mapId: number): Promise<MapDocumentRead | undefined> {
  const read = await translating(() =>
    db.transaction(async (trx) => {
      const detail = await readMapDetail(trx, mapId);
      if (!detail) return undefined;
      const { head, revision } = await headOf(trx, mapId);
      // One value joined by the database: tens of thousands of row objects would cost more.
      const joined = await trx('map_features').where({ map_id: mapId }).first(trx.raw("string_agg(feature, ',' order by ordinal) as features"));
      return { detail, head, revision, features: (joined?.features ?? '') as string };
    }),
  );
  if (!read) return undefined;
  const text = (async function* () {
    yield documentOpening(read.head);
    for (let start = 0; start < read.features.length; start += PIECE_CHARS) yield read.features.slice(start, start + PIECE_CHARS);
    yield DOCUMENT_CLOSING;
  })();
  return { detail: read.detail, text, close: async () => void (await text.return(undefined)), readAheadBytes: 0, revision: read.revision };
}
