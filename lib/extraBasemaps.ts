// The operator's own XYZ raster basemaps (BASEMAPS_EXTRA): a JSON array, given as the value itself
// or as the path of a file holding it. Each becomes a catalogue entry like the commercial ones —
// in basemap/list, the map settings' chooser, the browser (tiles through the service) and static
// images. Example: an organisation's own OpenStreetMap tile server, needing no key:
//   [{"id": "osm-internal", "name": "Our OSM", "url": "https://tiles.example.org/{z}/{x}/{y}.png",
//     "attribution": "© OpenStreetMap contributors", "tile_size": 256, "max_zoom": 19}]
// With `provider_kind` the URL must carry {key}: the map owner's key of that kind (or the
// service's PROVIDER_KEY_<KIND>) is put there, as for the commercial basemaps.
import fs from 'node:fs';
import { z } from 'zod';
import { BASEMAPS, PROVIDER_KINDS, type Basemap } from './basemaps.js';

const entry = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be 1–40 lowercase letters, digits and hyphens'),
    name: z.string().trim().min(1).max(60),
    url: z
      .url({ protocol: /^https?$/ })
      .refine((url) => ['{z}', '{x}', '{y}'].every((part) => url.includes(part)), 'must contain {z}, {x} and {y}'),
    attribution: z.string().trim().min(1).max(300),
    tile_size: z.union([z.literal(256), z.literal(512)]).default(256),
    max_zoom: z.number().int().min(0).max(24).default(19),
    provider_kind: z.enum(PROVIDER_KINDS).nullable().default(null),
  })
  .refine((basemap) => basemap.url.includes('{key}') === (basemap.provider_kind !== null), {
    message: 'url must contain {key} exactly when provider_kind is set (the key of that kind goes there)',
    path: ['url'],
  });

const listSchema = z.array(entry).max(50);

/** [0].url for the path [0, 'url']. */
const pathOf = (path: readonly PropertyKey[]) => path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');

/** The basemaps of BASEMAPS_EXTRA, or the problems that stop start-up (each naming the setting). */
export function parseExtraBasemaps(value: string): { basemaps: Basemap[] } | { problems: string[] } {
  let text = value;
  if (!value.startsWith('[')) {
    try {
      text = fs.readFileSync(value, 'utf8');
    } catch (error) {
      return { problems: [`BASEMAPS_EXTRA: is neither a JSON array nor a readable file (${(error as NodeJS.ErrnoException).code ?? String(error)})`] };
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [`BASEMAPS_EXTRA: is not valid JSON (${(error as Error).message})`] };
  }
  const parsed = listSchema.safeParse(json);
  if (!parsed.success) return { problems: parsed.error.issues.map((issue) => `BASEMAPS_EXTRA${pathOf(issue.path)}: ${issue.message}`) };
  const taken = new Set<string>(BASEMAPS.map((basemap) => basemap.id));
  const problems: string[] = [];
  for (const [index, basemap] of parsed.data.entries()) {
    if (taken.has(basemap.id)) problems.push(`BASEMAPS_EXTRA[${index}].id: "${basemap.id}" is already a basemap of the catalogue`);
    taken.add(basemap.id);
  }
  if (problems.length > 0) return { problems };
  return {
    basemaps: parsed.data.map((basemap) => ({
      id: basemap.id,
      name: basemap.name,
      attribution: basemap.attribution,
      providerKind: basemap.provider_kind,
      drawing: { type: 'xyz', url: basemap.url, tileSize: basemap.tile_size, maxZoom: basemap.max_zoom },
    })),
  };
}
