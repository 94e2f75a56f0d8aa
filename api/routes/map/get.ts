import { Readable } from 'node:stream';
import { z } from 'zod';
import { mapDocumentText } from '../../../db/documentStream.js';
import { readMapDetail } from '../../../db/maps.js';
import { AppError } from '../../../lib/errors.js';
import { callerOf, mapFor } from '../../context.js';
import { LARGE_READ_BYTES } from '../../largeReads.js';
import { defineOperation } from '../../operation.js';
import { mapGeoJson, mapId, mapSummary } from '../../schemas.js';
import { mapDetailJson } from '../../views.js';

const notFound = (id: number) => new AppError('map_not_found', `There is no map with the id ${id}.`);

/** The document's text, from its first piece on: a failure to start reading it is still an error answer. */
async function startedText(pieces: AsyncGenerator<Buffer>, mapId: number): Promise<AsyncGenerator<Buffer>> {
  const first = await pieces.next();
  if (first.done) throw notFound(mapId); // deleted in the meantime
  return (async function* () {
    yield first.value;
    yield* pieces;
  })();
}

/** map/get: every field of the map, for anyone who may view it; the document streams out. */
export const operation = defineOperation(import.meta.url, {
  path: 'map/get',
  kind: 'json',
  summary: 'Read one map in full',
  description:
    'Answers the map with its settings, members, dates, GeoJSON document and the images and markers it uses. ' +
    'A few large maps (over 1 MB of GeoJSON) are read at a time; when many are asked for at once, the answer may be ' +
    '`server_busy` after a short wait: retry.',
  args: z.strictObject({ map_id: mapId }),
  result: mapSummary.extend({
    description: z.string(),
    geojson: mapGeoJson,
    basemap: z.string(),
    collaborate: z.boolean(),
    viewer_users: z.array(z.string()).describe('Meaningful when visibility is select'),
    editor_users: z.array(z.string()).describe('Meaningful when collaboration is on'),
    created_date: z.iso.datetime().describe('ISO 8601, UTC'),
    modified_date: z.iso.datetime().describe('ISO 8601, UTC'),
    images: z.array(z.string()).describe('Images the GeoJSON uses'),
    markers: z.array(z.string()).describe('Markers the GeoJSON uses'),
  }),
  example: {
    args: { map_id: 2 },
    result: {
      id: 2,
      url: 'https://maps.example.com/alice/paris',
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
  async handle(ctx, { db, config, largeReads }, { map_id }) {
    await mapFor(db, map_id, callerOf(ctx).userId, 'view');
    const detail = await readMapDetail(db, map_id);
    if (!detail) throw notFound(map_id);
    const release = detail.contentBytes > LARGE_READ_BYTES ? await largeReads.take() : () => {};
    try {
      const geojson = await startedText(mapDocumentText(db, map_id), map_id);
      const body = Readable.from(mapDetailJson(config.publicUrl, detail, geojson), { objectMode: false });
      body.once('close', release);
      ctx.type = 'application/json';
      ctx.body = body;
    } catch (error) {
      release();
      throw error;
    }
  },
});
