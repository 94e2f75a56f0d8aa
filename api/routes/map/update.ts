import { z } from 'zod';
import { updateMap } from '../../../db/maps.js';
import { findLinkableImages } from '../../../db/media.js';
import { canChangeSharing } from '../../../lib/access.js';
import { BASEMAP_IDS } from '../../../lib/basemaps.js';
import { AppError } from '../../../lib/errors.js';
import { completedContent } from '../../../lib/formats/documentContent.js';
import { featureImage } from '../../../lib/media/fields.js';
import type { MapContent } from '../../../lib/maps.js';
import { summaryOf } from '../../../lib/mapSummary.js';
import { shortNameBase } from '../../../lib/shortName.js';
import { callerOf, mapFor } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { description, geojsonArgument, mapId, mapSummary, settableVisibility, shortName, title } from '../../schemas.js';
import { mapSummaryView } from '../../views.js';

/** map/update: changes only what is included; a geojson replaces the whole content. No version is saved. */
export const operation = defineOperation(import.meta.url, {
  path: 'map/update',
  kind: 'json',
  summary: 'Change map settings or replace its GeoJSON',
  description:
    'Only the arguments included are changed. A `geojson` argument replaces the whole content of the map; ' +
    'images and markers it references by id are linked again without a new upload; they must have been uploaded by the ' +
    'owner or an editor of the map (`invalid_geojson` naming the id otherwise). A feature whose `image` has its `id` alone ' +
    'gets `w`, `h`, `tip_color` and `avg_color` from the stored image. ' +
    'Editors may change the title, description, basemap and content; only the owner changes the visibility ' +
    'and the short name (`permission_denied` otherwise). The static image is not refreshed and no map version is saved.',
  args: z.strictObject({
    map_id: mapId,
    title: title.optional(),
    short_name: shortName.optional(),
    description: description.optional(),
    geojson: geojsonArgument.optional().describe('A map GeoJSON document; replaces the whole content'),
    basemap: z.enum(BASEMAP_IDS).optional().describe('A basemap id of the catalogue (basemap/list)'),
    visibility: settableVisibility.optional(),
  }),
  result: mapSummary,
  example: {
    args: { map_id: 2, title: 'Paris by night', basemap: 'dark' },
    result: {
      id: 2,
      url: 'https://maps.example.com/alice/paris',
      owner: 'alice',
      short_name: 'paris',
      title: 'Paris by night',
      visibility: 'unlisted',
    },
  },
  async handle(ctx, { db, config }, args) {
    const { access } = await mapFor(db, args.map_id, callerOf(ctx).userId, 'edit');
    if (!canChangeSharing(access) && (args.visibility !== undefined || args.short_name !== undefined)) {
      throw new AppError(
        'permission_denied',
        'Only the owner may change the visibility or the short name of a map; editors change its content, title, description and basemap.',
      );
    }
    let content: MapContent | undefined;
    if (args.geojson) {
      const ids = args.geojson.unfilled.map((entry) => entry.imageId);
      const images = ids.length === 0 ? [] : await findLinkableImages(db, { mapId: args.map_id }, ids);
      content = completedContent(args.geojson, new Map(images.map((image) => [image.id, featureImage(image)])));
    }
    const updated = await updateMap(db, args.map_id, {
      title: args.title,
      description: args.description,
      basemap: args.basemap,
      visibility: args.visibility,
      shortNameBase: args.short_name === undefined ? undefined : shortNameBase(args.short_name, args.title),
      content,
    });
    if (!updated) throw new AppError('map_not_found', `There is no map with the id ${args.map_id}.`);
    ctx.body = mapSummaryView(config.publicUrl, summaryOf(updated));
  },
});
