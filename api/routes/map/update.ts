import { z } from 'zod';
import { changeMapSettings, mapSettingsArgs } from '../../mapSettings.js';
import { bodyBytesOf, callerOf } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { chargeFileBytes } from '../../rateCharges.js';
import { geojsonArgument, mapId, mapSummary } from '../../schemas.js';
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
    ...mapSettingsArgs,
    geojson: geojsonArgument.optional().describe('A map GeoJSON document; replaces the whole content'),
  }),
  result: mapSummary,
  example: {
    args: { map_id: 5480394431770113, title: 'Paris by night', basemap: 'dark' },
    result: {
      id: 5480394431770113,
      url: 'https://maps.example.com/alice/paris~KQXRBZTWMHPLVCNFGDSYAE',
      owner: 'alice',
      short_name: 'paris',
      title: 'Paris by night',
      visibility: 'unlisted',
    },
  },
  // The same code path as the map page's settings form (api/mapSettings.ts): the same checks and the same write.
  links: {
    GetMap: { operation: 'map/get', description: 'Read the changed map', arguments: { map_id: '$request.body#/map_id' } },
    RefreshImage: { operation: 'map/refresh_image', description: 'Draw its static image again with the change', arguments: { map_id: '$request.body#/map_id' } },
  },
  async handle(ctx, { db, config }, args) {
    // A whole new content is a file job, as an upload: charged by its size and the key's jobs running.
    if (args.geojson) await chargeFileBytes(ctx, bodyBytesOf(ctx));
    const updated = await changeMapSettings(db, callerOf(ctx).userId, args.map_id, {
      title: args.title,
      shortName: args.short_name,
      description: args.description,
      basemap: args.basemap,
      visibility: args.visibility,
      geojson: args.geojson,
    });
    ctx.body = mapSummaryView(config.publicUrl, updated);
  },
});
