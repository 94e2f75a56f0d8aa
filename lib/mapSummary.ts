import type { MapRecord } from './maps.js';
import type { MapSummaryData } from './jobContracts.js';

export const summaryOf = (map: MapRecord): MapSummaryData => ({
  id: map.id,
  owner: map.owner,
  shortName: map.shortName,
  title: map.title,
  visibility: map.visibility,
});

/** A map's address on the service: /{owner}/{short_name}. */
export const mapPath = (map: Pick<MapSummaryData, 'owner' | 'shortName'>): string => `/${encodeURIComponent(map.owner)}/${encodeURIComponent(map.shortName)}`;

/** The public address of a map: {PUBLIC_URL}/{owner}/{short_name}. */
export const mapUrl = (publicUrl: string, map: Pick<MapSummaryData, 'owner' | 'shortName'>): string => `${publicUrl}${mapPath(map)}`;
