import type { MapRecord } from './maps.js';
import type { MapSummaryData } from './jobContracts.js';
import { keyedName, splitKeyedName } from './linkKeys.js';

/**
 * A map's summary for a workflow's result. Never with the link key: results stay in Temporal's
 * history, which is no place for a secret; the API reads the key when it answers.
 */
export const summaryOf = (map: MapRecord): MapSummaryData => ({
  id: map.id,
  owner: map.owner,
  shortName: map.shortName,
  title: map.title,
  visibility: map.visibility,
});

/** What a map's address is made of: its owner, its short name and, while it is unlisted, its link key. */
export type MapAddressParts = Pick<MapRecord, 'owner' | 'shortName' | 'linkKey'>;

/** A map's address on the service: /{owner}/{short_name}, with `~{link key}` for an unlisted map. */
export const mapPath = (map: MapAddressParts): string => `/${encodeURIComponent(map.owner)}/${encodeURIComponent(keyedName(map.shortName, map.linkKey))}`;

/** The public address of a map: {PUBLIC_URL}{mapPath}. */
export const mapUrl = (publicUrl: string, map: MapAddressParts): string => `${publicUrl}${mapPath(map)}`;

/** How `/embed/…` and `/maps/…` name a map: its id, with `~{link key}` for an unlisted map. */
export const mapRef = (map: Pick<MapRecord, 'id' | 'linkKey'>): string => keyedName(String(map.id), map.linkKey);

/** A map reference read back from a path: the id and the link key it carries; undefined when it names no map. */
export function readMapRef(segment: string | undefined): { id: number; key: string | undefined } | undefined {
  const parts = splitKeyedName(segment ?? '');
  if (!parts || !/^[1-9]\d{0,15}$/.test(parts.name)) return undefined;
  const id = Number(parts.name);
  return Number.isSafeInteger(id) ? { id, key: parts.key } : undefined;
}
