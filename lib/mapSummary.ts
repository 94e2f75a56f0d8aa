import type { MapRecord } from './maps.js';
import type { MapSummaryData } from './jobContracts.js';

export const summaryOf = (map: MapRecord): MapSummaryData => ({
  id: map.id,
  owner: map.owner,
  shortName: map.shortName,
  title: map.title,
  visibility: map.visibility,
});

/** The public address of a map: {PUBLIC_URL}/{owner}/{short_name}. */
export const mapUrl = (publicUrl: string, map: Pick<MapSummaryData, 'owner' | 'shortName'>): string =>
  `${publicUrl}/${encodeURIComponent(map.owner)}/${encodeURIComponent(map.shortName)}`;
