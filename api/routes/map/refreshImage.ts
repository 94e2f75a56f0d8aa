import { z } from 'zod';
import { findProviderKey } from '../../../db/providerKeys.js';
import { basemapById } from '../../../lib/basemaps.js';
import { missingProviderKeyError } from '../../../lib/providerKeys.js';
import { callerOf, mapFor } from '../../context.js';
import { clientGone } from '../../fileJobs.js';
import { defineOperation } from '../../operation.js';
import { requestContextOf } from '../../requestContext.js';
import { mapId, mapSummary } from '../../schemas.js';
import { mapSummaryView } from '../../views.js';

/** How long a refresh waits for its render before answering processing_timeout (the render goes on). */
const RENDER_WAIT_MS = 110_000;

const minutes = (count: number): string => `${count} minute${count === 1 ? '' : 's'}`;

const when = (epochMs: number, now: number): string =>
  `${new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z')} (in ${minutes(Math.max(1, Math.ceil((epochMs - now) / 60_000)))})`;

/** map/refresh_image: renders the map's static image and thumbnail again, at most once per cool-down. */
export const operation = defineOperation(import.meta.url, {
  path: 'map/refresh_image',
  kind: 'json',
  summary: 'Render the static map image again',
  description:
    'Renders the map\'s static image (`{url}/static.png`, 1200×630) and thumbnail (`{url}/thumbnail.png`, 400×300) from its ' +
    'current content and answers once the new image is served, with `message` "Static image refreshed.". A map\'s image is ' +
    'rendered at most once every 5 minutes (IMAGE_REFRESH_SPACING): a call during that time answers at once with a `message` ' +
    'saying when the image will be refreshed, and every call until then is served by that one render. The image rendered ' +
    'after map/upload does not count. The owner and the editors may refresh (`permission_denied` for viewers). A map on a ' +
    'commercial basemap needs the owner\'s provider key of its kind (`provider_key_missing`, saying which key to add and ' +
    'where); these errors come before the spacing, so they never use it up.',
  args: z.strictObject({ map_id: mapId }),
  result: mapSummary.extend({ message: z.string().describe('What happened: refreshed now, or when it will be') }),
  example: {
    args: { map_id: 5480394431770113 },
    result: {
      id: 5480394431770113,
      url: 'https://maps.example.com/alice/paris~KQXRBZTWMHPLVCNFGDSYAE',
      owner: 'alice',
      short_name: 'paris',
      title: 'Paris by night',
      visibility: 'unlisted',
      message: 'Static image refreshed.',
    },
  },
  async handle(ctx, { db, config, jobs }, args) {
    const { map } = await mapFor(db, args.map_id, callerOf(ctx).userId, 'edit');
    const basemap = basemapById(map.basemap);
    if (basemap?.providerKind && !(await findProviderKey(db, map.ownerId, basemap.providerKind))) {
      throw missingProviderKeyError({ name: basemap.name, providerKind: basemap.providerKind }, map.owner);
    }
    const answer = await jobs.refreshImage(
      { mapId: map.id, renderTaskQueue: config.renderTaskQueue, spacingMs: config.imageRefreshSpacingMs },
      RENDER_WAIT_MS,
      clientGone(ctx),
      requestContextOf(ctx),
    );
    const message = answer.refreshed
      ? 'Static image refreshed.'
      : `The static image was refreshed less than ${minutes(Math.max(1, Math.round(config.imageRefreshSpacingMs / 60_000)))} ago; it will be refreshed again at ${when(answer.nextRenderAt, Date.now())}, with every change made until then.`;
    ctx.body = { ...mapSummaryView(config.publicUrl, map), message };
  },
});
