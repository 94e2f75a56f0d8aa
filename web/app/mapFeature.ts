// The editor's and the map page's model of an item: a GeoJSON feature with a numeric id. A model
// type with no map library behind it (the adapter, ./mapAdapter.ts, draws these; it does not own them).
export interface MapFeature {
  type: 'Feature';
  id: number;
  geometry: { type: string; coordinates: unknown } | null;
  properties: Record<string, unknown> | null;
}

/** A deep copy of a feature, to change without touching the one it came from. */
export const copyFeature = (feature: MapFeature): MapFeature => JSON.parse(JSON.stringify(feature)) as MapFeature;
