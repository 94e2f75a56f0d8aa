// The basemaps a map can name. `classic` is drawn by the service itself from data it ships;
// the others are tile services (premium ones need the owner's provider key, in a later issue).
export const BASEMAPS = {
  classic: { kind: 'embedded' },
  osm: { kind: 'tiles' },
  'osm-humanitarian': { kind: 'tiles' },
  'carto-light': { kind: 'tiles' },
  'carto-dark': { kind: 'tiles' },
  'mapbox-streets': { kind: 'premium' },
  'mapbox-satellite': { kind: 'premium' },
  'esri-world-imagery': { kind: 'premium' },
  'thunderforest-outdoors': { kind: 'premium' },
} as const;

export type BasemapId = keyof typeof BASEMAPS;
export const BASEMAP_IDS = Object.keys(BASEMAPS) as [BasemapId, ...BasemapId[]];
export const DEFAULT_BASEMAP: BasemapId = 'classic';
