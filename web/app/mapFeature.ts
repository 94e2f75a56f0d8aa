// The editor's and the map page's model of an item: a GeoJSON feature with a numeric id. A model
// type with no map library behind it (the adapter, ./mapAdapter.ts, draws these; it does not own them).
export interface MapFeature {
  type: 'Feature';
  id: number;
  geometry: { type: string; coordinates: unknown } | null;
  properties: Record<string, unknown> | null;
}
