import { z } from 'zod';
import { featurePage } from '../../../db/featureReads.js';
import { AppError } from '../../../lib/errors.js';
import type { BBox } from '../../../lib/formats/featureRows.js';
import { groupAndSubgroups } from '../../../lib/groupFilter.js';
import { callerOf, mapFor } from '../../context.js';
import { DEFAULT_PAGE, MAX_PAGE, MAX_PAGE_BYTES, featureCollectionText, featuresResult, revision } from '../../featureArgs.js';
import { defineOperation } from '../../operation.js';
import { chargeMapRead } from '../../rateCharges.js';
import { linkKey, mapId } from '../../schemas.js';

/** A cursor is the last ordinal of a page (map_features.ordinal), as a string: opaque to clients, any such string valid. */
const cursorOf = (ordinal: number): string => String(ordinal);

const cursor = z
  .string()
  .regex(/^\d{1,15}$/, "must be a `next_cursor` of feature/list's answer")
  .transform(Number)
  .describe("The previous page's `next_cursor`, sent back as it is; left out: the first page");

// Four numbers in -180…180 (what JSON Schema 3.0 can say of a list); the latitudes' range and
// south ≤ north are checked by the handler (invalid_bbox).
const bbox = z
  .array(z.number().min(-180).max(180))
  .length(4)
  .describe('[west, south, east, north] in degrees (latitudes -90…90, south not above north): features whose bounding boxes meet it; west above east crosses the antimeridian');

function checkedBox(box: number[]): BBox {
  const [west, south, east, north] = box as BBox;
  if (Math.abs(south) > 90 || Math.abs(north) > 90) throw new AppError('invalid_bbox', `"bbox": its latitudes (the 2nd and 4th numbers) must be within -90…90, not ${south} and ${north}.`);
  if (south > north) throw new AppError('invalid_bbox', `"bbox": its south (${south}, the 2nd number) is above its north (${north}, the 4th).`);
  return [west, south, east, north];
}

const groupId = z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().min(1).max(200)]);

/**
 * feature/list: the map's features a page at a time, in the map's order, for whoever may see the
 * map (map/get's rule). A page is read after the previous one's last row on the feature rows'
 * order index, so a page of a 200,000-feature map costs what a page of a small one does.
 */
export const operation = defineOperation(import.meta.url, {
  path: 'feature/list',
  kind: 'json',
  summary: "List a map's features a page at a time",
  description:
    `Answers up to \`limit\` features (default ${DEFAULT_PAGE.toLocaleString('en')}, at most ${MAX_PAGE.toLocaleString('en')}) in the map's order as a GeoJSON ` +
    `FeatureCollection, with \`next_cursor\` to send for the next page (null on the last). A page ends early once it holds ${MAX_PAGE_BYTES / 1024 / 1024} MB ` +
    'of features (a page has at least one): follow `next_cursor` until it is null. `bbox` keeps the features whose bounding ' +
    'boxes meet it, `group` those in the group or in its subgroups at any depth (an unknown group is `group_not_found`; a latitude outside -90…90 or south above north `invalid_bbox`). ' +
    'Each page is read in one snapshot and says its `revision`; a map changed while it is paged may show a later state on later ' +
    'pages: to keep a copy, call map/changes with the first page\'s revision afterwards. Who may read is map/get\'s rule.',
  args: z.strictObject({
    map_id: mapId,
    bbox: bbox.optional(),
    group: groupId.optional().describe('A group id of the map (map/get\'s `groups`): its features and its subgroups\''),
    limit: z.number().int().min(1).max(MAX_PAGE).optional().describe(`Features per page, 1 to ${MAX_PAGE} (default ${DEFAULT_PAGE})`),
    cursor: cursor.optional(),
    link_key: linkKey.optional(),
  }),
  result: z.object({
    type: z.literal('FeatureCollection'),
    revision: revision.describe('The map revision this page was read at'),
    next_cursor: z.string().nullable().describe('Send it as `cursor` for the next page; null: this is the last'),
    features: featuresResult,
  }),
  example: {
    args: { map_id: 5480394431770113, bbox: [2.2, 48.8, 2.5, 48.9], limit: 2 },
    result: {
      type: 'FeatureCollection',
      revision: 12,
      next_cursor: '2',
      features: [
        { type: 'Feature', id: 1, geometry: { type: 'Point', coordinates: [2.3376, 48.8606] }, properties: { title: 'Louvre', group: 1 } },
        { type: 'Feature', id: 2, geometry: { type: 'Point', coordinates: [2.3266, 48.86] }, properties: { title: "Musée d'Orsay", group: 1 } },
      ],
    },
  },
  links: {
    NextPage: { operation: 'feature/list', description: 'The next page', arguments: { map_id: '$request.body#/map_id', cursor: '$response.body#/next_cursor' } },
    ChangesSince: { operation: 'map/changes', description: 'What changed after this read', arguments: { map_id: '$request.body#/map_id', since_revision: '$response.body#/revision' } },
  },
  async handle(ctx, { db }, args) {
    await mapFor(db, args.map_id, callerOf(ctx).userId, 'view', args.link_key);
    const group = args.group;
    const page = await featurePage(db, args.map_id, {
      afterOrdinal: args.cursor ?? 0,
      limit: args.limit ?? DEFAULT_PAGE,
      ...(args.bbox ? { box: checkedBox(args.bbox) } : {}),
      ...(group !== undefined ? { groups: (head: string) => groupAndSubgroups(head, group) } : {}),
    }, MAX_PAGE_BYTES);
    if (!page) throw new AppError('map_not_found', `There is no map with the id ${args.map_id}.`);
    // A page costs what map/get of a map its size would (1, and more per whole MB).
    await chargeMapRead(ctx, page.features.reduce((sum, feature) => sum + feature.text.length, 0));
    ctx.type = 'application/json';
    ctx.body = featureCollectionText(
      { revision: page.revision, next_cursor: page.nextOrdinal === null ? null : cursorOf(page.nextOrdinal) },
      page.features.map((feature) => feature.text),
    );
  },
});
