// How maps look in answers: the spec's field names, URLs from PUBLIC_URL, dates in ISO 8601 UTC.
import type { MapDetail } from '../db/maps.js';
import type { ImportSummary, MapSummaryData } from '../lib/jobContracts.js';
import { mapUrl } from '../lib/mapSummary.js';

export function mapSummaryView(publicUrl: string, map: MapSummaryData) {
  return {
    id: map.id,
    url: mapUrl(publicUrl, map),
    owner: map.owner,
    short_name: map.shortName,
    title: map.title,
    visibility: map.visibility,
  };
}

export function mapFileView(publicUrl: string, map: MapSummaryData, imported?: ImportSummary) {
  return { ...mapSummaryView(publicUrl, map), ...(imported ? { import: imported } : {}) };
}

/**
 * The map/get answer as JSON text. The GeoJSON is spliced in as the database's own text: a
 * large map is not parsed and serialised again on every read.
 */
export function mapDetailJson(publicUrl: string, map: MapDetail): string {
  const fields = JSON.stringify({
    ...mapSummaryView(publicUrl, map),
    description: map.description,
    basemap: map.basemap,
    collaborate: map.collaborate,
    viewer_users: map.viewers,
    editor_users: map.editors,
    created_date: map.createdAt.toISOString(),
    modified_date: map.modifiedAt.toISOString(),
    images: map.images,
    markers: map.markers,
  });
  return `${fields.slice(0, -1)},"geojson":${map.geojsonText}}`;
}
