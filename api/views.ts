// How maps look in answers: the spec's field names, URLs from PUBLIC_URL, dates in ISO 8601 UTC.
import type { MapDetail, MapRecord } from '../lib/maps.js';
import type { ImportSummary, MapSummaryData } from '../lib/jobContracts.js';
import { mapUrl } from '../lib/mapSummary.js';

/** A map's summary with its link key (an unlisted map's `url` carries it): a MapRecord, or a workflow's summary with its key read (context.ts withLinkKey). */
export type SummaryWithKey = MapSummaryData & Pick<MapRecord, 'linkKey'>;

export function mapSummaryView(publicUrl: string, map: SummaryWithKey) {
  return {
    id: map.id,
    url: mapUrl(publicUrl, map),
    owner: map.owner,
    short_name: map.shortName,
    title: map.title,
    visibility: map.visibility,
  };
}

export function mapFileView(publicUrl: string, map: SummaryWithKey, imported?: ImportSummary) {
  return { ...mapSummaryView(publicUrl, map), ...(imported ? { import: imported } : {}) };
}

/**
 * The map/get answer as JSON text, in pieces: the fields, then the document's text as the
 * database sends it (a large map is never parsed, serialised or held whole on its way out).
 */
export async function* mapDetailJson(publicUrl: string, map: MapDetail, geojson: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer | string> {
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
  yield `${fields.slice(0, -1)},"geojson":`;
  yield* geojson;
  yield '}';
}
