import { z } from 'zod';
import { BASEMAPS, basemapCatalogue, PROVIDER_KINDS, type Basemap } from '../../../lib/basemaps.js';
import { defineOperation } from '../../operation.js';

const basemapView = (basemap: Basemap) => ({
  id: basemap.id,
  name: basemap.name,
  attribution: basemap.attribution,
  provider_kind: basemap.providerKind,
});

/** basemap/list: the catalogue, the ids map/update accepts. */
export const operation = defineOperation(import.meta.url, {
  path: 'basemap/list',
  kind: 'json',
  summary: 'List the basemaps a map can use',
  description:
    'No arguments (an empty body or `{}`). Answers every basemap of the catalogue: its `id` (what `map/update` accepts as ' +
    '`basemap`), `name`, the `attribution` shown with it, and `provider_kind`: null for the built-in basemaps (`classic`, ' +
    'the default, `light`, `dark`), else the kind of provider key the map owner needs for it ' +
    '(`map_platform`: a public token starting `pk.`; `location_platform`, `gis_platform`, `tile_provider`: an API key). ' +
    'After the service\'s own come the basemaps its operator added (BASEMAPS_EXTRA): their tile servers, with or without a provider kind.',
  args: z.strictObject({}),
  result: z.object({
    basemaps: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        attribution: z.string(),
        provider_kind: z.enum(PROVIDER_KINDS).nullable().describe('The provider key a map on this basemap needs; null: none'),
      }),
    ),
  }),
  example: {
    args: {},
    result: { basemaps: BASEMAPS.slice(0, 4).map(basemapView) },
  },
  async handle(ctx) {
    ctx.body = { basemaps: basemapCatalogue().map(basemapView) };
  },
});
