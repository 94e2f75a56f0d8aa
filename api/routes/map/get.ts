import { Readable } from 'node:stream';
import { z } from 'zod';
import { openMapDocument } from '../../../db/mapDocument.js';
import { canEdit } from '../../../lib/access.js';
import { AppError } from '../../../lib/errors.js';
import { callerOf, mapFor } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { chargeMapRead } from '../../rateCharges.js';
import { linkKey, mapGeoJson, mapId, mapSummary } from '../../schemas.js';
import { mapDetailJson } from '../../views.js';

/** The error a stalled reader's answer ends with (not an internal error: app.ts leaves it out of the log). */
export const CLIENT_STALLED = 'ERR_CLIENT_STALLED';

/** Maps above this many bytes of GeoJSON are large reads: they take a turn (ApiDeps.largeReads). */
const LARGE_READ_BYTES = 1024 * 1024;

const notFound = (id: number) => new AppError('map_not_found', `There is no map with the id ${id}.`);

/** After the watchdog fires: a moment for the client's pending reads (a busy event loop runs timers before I/O). */
const STALL_CONFIRM_MS = 1_000;

/**
 * The answer as a stream whose end, however it comes (all sent, the client gone, the client
 * stalled), ends the document's stream too (which gives its database connection back) and frees
 * the read's turn. A client that asks for nothing more for `stallMs` is cut off; the time the
 * service itself takes to produce the next piece does not count.
 */
function answerStream(parts: AsyncIterable<Buffer | string>, close: () => Promise<void>, release: () => void, stallMs: number, readAheadBytes: number): Readable {
  let watchdog: NodeJS.Timeout | undefined;
  let confirm: NodeJS.Timeout | undefined;
  let pulls = 0;
  const stop = () => {
    clearTimeout(watchdog);
    clearTimeout(confirm);
  };
  const body: Readable = Readable.from(
    (async function* () {
      for await (const part of parts) {
        const asked = pulls;
        watchdog = setTimeout(() => {
          confirm = setTimeout(() => {
            if (pulls === asked) body.destroy(Object.assign(new Error('the client stopped reading'), { code: CLIENT_STALLED }));
          }, STALL_CONFIRM_MS);
        }, stallMs);
        yield part;
        pulls++; // the client asked for more
        stop();
      }
    })(),
    { objectMode: false, highWaterMark: readAheadBytes || undefined }, // see MapDocumentRead.readAheadBytes
  );
  body.once('close', () => {
    stop();
    release();
    void close();
  });
  return body;
}

/**
 * map/get: every field of the map, for anyone who may view it (an unlisted map: its owner, its
 * editors and the people named in it, or whoever gives its link key); the document streams out. Who the editors and viewers
 * are is told only to the owner and the editors: anyone else gets both lists empty.
 */
export const operation = defineOperation(import.meta.url, {
  path: 'map/get',
  kind: 'json',
  summary: 'Read one map in full',
  description:
    'Answers the map with its settings, members, dates, GeoJSON document and the images and markers it uses. ' +
    'An unlisted map is answered to its owner, its editors and the people named in it, and to others who give its `link_key` (the part of its link after `~`); ' +
    'to anyone else it is `map_not_found`, as a map that does not exist. `viewer_users` and `editor_users` are filled for the owner and the editors only, ' +
    'empty lists for anyone else. ' +
    'A few large maps (over 1 MB of GeoJSON) are read at a time; when many are asked for at once, the answer may be ' +
    '`server_busy` after a short wait: retry.',
  args: z.strictObject({ map_id: mapId, link_key: linkKey.optional() }),
  result: mapSummary.extend({
    description: z.string(),
    geojson: mapGeoJson,
    basemap: z.string(),
    collaborate: z.boolean(),
    viewer_users: z.array(z.string()).describe('Meaningful when visibility is select; empty unless the caller is the owner or an editor'),
    editor_users: z.array(z.string()).describe('Meaningful when collaboration is on; empty unless the caller is the owner or an editor'),
    created_date: z.iso.datetime().describe('ISO 8601, UTC'),
    modified_date: z.iso.datetime().describe('ISO 8601, UTC'),
    images: z.array(z.string()).describe('Images the GeoJSON uses'),
    markers: z.array(z.string()).describe('Markers the GeoJSON uses'),
  }),
  example: {
    args: { map_id: 5480394431770113 },
    result: {
      id: 5480394431770113,
      url: 'https://maps.example.com/alice/paris~KQXRBZTWMHPLVCNFGDSYAE',
      owner: 'alice',
      short_name: 'paris',
      title: 'Paris',
      visibility: 'unlisted',
      description: 'Museums and parks',
      geojson: {
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [2.3376, 48.8606] }, properties: { title: 'Louvre', group: 1 } },
        ],
        groups: [{ id: 1, title: 'Museums' }],
      },
      basemap: 'classic',
      collaborate: false,
      viewer_users: [],
      editor_users: [],
      created_date: '2026-11-02T09:14:03.000Z',
      modified_date: '2026-11-20T17:40:12.000Z',
      images: [],
      markers: [],
    },
  },
  links: {
    UpdateMap: { operation: 'map/update', description: 'Change the map', arguments: { map_id: '$response.body#/id' } },
    ListFeatures: { operation: 'feature/list', description: 'Read the map a page of features at a time', arguments: { map_id: '$response.body#/id' } },
  },
  async handle(ctx, { db, config, largeReads }, { map_id, link_key }) {
    const { map, access } = await mapFor(db, map_id, callerOf(ctx).userId, 'view', link_key);
    await chargeMapRead(ctx, map.contentBytes); // a large map costs more, by its size
    const release = map.contentBytes > LARGE_READ_BYTES ? await largeReads.take() : () => {};
    let read: Awaited<ReturnType<typeof openMapDocument>>;
    try {
      read = await openMapDocument(db, map_id);
    } catch (error) {
      release();
      throw error;
    }
    if (!read) {
      release();
      throw notFound(map_id); // deleted in the meantime
    }
    // The document's first features were read already: a failure to start reading is still an error answer.
    const { text, close, readAheadBytes } = read;
    // The address as the access check saw it (a map made unlisted a moment ago never hands its
    // new key to a caller who read it as public); who else has a part in the map is the
    // business of those who edit it.
    const detail = { ...read.detail, linkKey: map.linkKey, ...(canEdit(access) ? {} : { editors: [], viewers: [] }) };
    ctx.type = 'application/json';
    ctx.body = answerStream(mapDetailJson(config.publicUrl, detail, text), close, release, largeReads.stallMs, readAheadBytes);
  },
});
