// The basemap catalogue: every basemap a map can name, what `basemap/list` answers and
// `map/update` accepts. Built-in basemaps (`classic`, the default, `light`, `dark`) are drawn by
// the service from Natural Earth data it ships (lib/render/builtinBasemap.ts for the static image,
// lib/basemapTiles/ and lib/basemapStyles.ts for the browser), so a map shows with no internet and
// no key. Commercial basemaps are XYZ raster tiles fetched with the map owner's provider key for
// the basemap's provider kind (the four kinds of the spec's provider keys page). The operator may
// add XYZ raster basemaps of their own (BASEMAPS_EXTRA, lib/extraBasemaps.ts): each entry point
// puts them in the catalogue once at start (useExtraBasemaps), after the service's own.

/** The spec's provider kinds: vector/raster map platform (a public token, `pk.…`), location platform, GIS platform, tile provider. */
export const PROVIDER_KINDS = ['map_platform', 'location_platform', 'gis_platform', 'tile_provider'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** How a basemap is drawn. */
export type BasemapDrawing =
  | { type: 'builtin'; palette: 'classic' | 'light' | 'dark' }
  | {
      type: 'xyz';
      /** Tile URL with {z}, {x}, {y} and, for a basemap with a provider kind, {key} (the owner's provider key, URL-encoded). */
      url: string;
      tileSize: 256 | 512;
      maxZoom: number;
    };

export interface Basemap {
  id: string;
  name: string;
  attribution: string;
  /** The provider key a map on it needs; null for built-in basemaps and the operator's own that need none. */
  providerKind: ProviderKind | null;
  drawing: BasemapDrawing;
}

const NATURAL_EARTH = 'Made with Natural Earth';
const OSM = '© OpenStreetMap contributors';

export const BASEMAPS = [
  { id: 'classic', name: 'Classic', attribution: NATURAL_EARTH, providerKind: null, drawing: { type: 'builtin', palette: 'classic' } },
  { id: 'light', name: 'Light', attribution: NATURAL_EARTH, providerKind: null, drawing: { type: 'builtin', palette: 'light' } },
  { id: 'dark', name: 'Dark', attribution: NATURAL_EARTH, providerKind: null, drawing: { type: 'builtin', palette: 'dark' } },
  {
    id: 'mapbox-streets',
    name: 'Mapbox Streets',
    attribution: `© Mapbox ${OSM}`,
    providerKind: 'map_platform',
    drawing: { type: 'xyz', url: 'https://api.mapbox.com/styles/v1/mapbox/streets-v12/tiles/512/{z}/{x}/{y}?access_token={key}', tileSize: 512, maxZoom: 22 },
  },
  {
    id: 'mapbox-satellite',
    name: 'Mapbox Satellite',
    attribution: '© Mapbox © Maxar',
    providerKind: 'map_platform',
    drawing: { type: 'xyz', url: 'https://api.mapbox.com/styles/v1/mapbox/satellite-v9/tiles/512/{z}/{x}/{y}?access_token={key}', tileSize: 512, maxZoom: 22 },
  },
  {
    id: 'here-explore',
    name: 'HERE Explore',
    attribution: '© HERE',
    providerKind: 'location_platform',
    drawing: { type: 'xyz', url: 'https://maps.hereapi.com/v3/base/mc/{z}/{x}/{y}/png8?style=explore.day&apiKey={key}', tileSize: 256, maxZoom: 20 },
  },
  {
    id: 'esri-world-imagery',
    name: 'Esri World Imagery',
    attribution: 'Esri, Maxar, Earthstar Geographics, and the GIS User Community',
    providerKind: 'gis_platform',
    drawing: {
      type: 'xyz',
      url: 'https://ibasemaps-api.arcgis.com/arcgis/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}?token={key}',
      tileSize: 256,
      maxZoom: 19,
    },
  },
  {
    id: 'thunderforest-outdoors',
    name: 'Thunderforest Outdoors',
    attribution: `Maps © Thunderforest, Data ${OSM}`,
    providerKind: 'tile_provider',
    drawing: { type: 'xyz', url: 'https://tile.thunderforest.com/outdoors/{z}/{x}/{y}.png?apikey={key}', tileSize: 256, maxZoom: 22 },
  },
] as const satisfies readonly Basemap[];

export type BasemapId = (typeof BASEMAPS)[number]['id'];
export const DEFAULT_BASEMAP: BasemapId = 'classic';

let extraBasemaps: readonly Basemap[] = [];

/** Adds the operator's basemaps (config.extraBasemaps) to the catalogue, replacing any added before: once at start. */
export function useExtraBasemaps(basemaps: readonly Basemap[]): void {
  extraBasemaps = basemaps;
}

/** Every basemap a map can name: the service's own, then the operator's. */
export const basemapCatalogue = (): readonly Basemap[] => (extraBasemaps.length === 0 ? BASEMAPS : [...BASEMAPS, ...extraBasemaps]);

export const basemapById = (id: string): Basemap | undefined =>
  BASEMAPS.find((basemap) => basemap.id === id) ?? extraBasemaps.find((basemap) => basemap.id === id);
