// Which basemap a map's page and embed show in the browser. Built-in basemaps are always
// themselves. A commercial one is drawn from its provider's tiles (through the service, which
// adds the key) with the owner's key; without one, with the service's own key (PROVIDER_KEY_…)
// until the map passes the day's heavy-traffic limit, then on `classic` for 24 hours (the spec's
// rule); with neither key, on `classic`. The owner is told why (mapPage's notice).
import { basemapById, DEFAULT_BASEMAP, type Basemap } from './basemaps.js';

/** How long a heavy-traffic map stays on classic. */
export const HEAVY_TRAFFIC_LIMIT_MS = 24 * 60 * 60 * 1000;

export type BrowserBasemap =
  | { kind: 'builtin'; id: string; fallback?: Fallback }
  | { kind: 'tiles'; basemap: Basemap; keyOf: 'owner' | 'service' };

/** Why a map shows on classic instead of its commercial basemap. */
export type Fallback = { reason: 'no_key'; basemap: Basemap } | { reason: 'heavy_traffic'; basemap: Basemap; until: Date; views: number };

export interface BasemapSituation {
  basemapId: string;
  ownerHasKey: boolean;
  serviceHasKey: boolean;
  /** The end of the map's current heavy-traffic limit (maps.classic_until), if any. */
  classicUntil: Date | null;
  /** The map's views today, this one counted (undefined: not a view, e.g. a tile request). */
  viewsToday?: number;
  limit: number;
  now: Date;
}

/** What to show, and the limit to record when this view starts one. */
export function chooseBrowserBasemap(s: BasemapSituation): { shown: BrowserBasemap; startLimitUntil?: Date } {
  const basemap = basemapById(s.basemapId);
  if (!basemap || basemap.drawing.type === 'builtin') return { shown: { kind: 'builtin', id: basemap?.id ?? DEFAULT_BASEMAP } };
  const classic = (fallback: Fallback): BrowserBasemap => ({ kind: 'builtin', id: DEFAULT_BASEMAP, fallback });
  if (s.ownerHasKey) return { shown: { kind: 'tiles', basemap, keyOf: 'owner' } };
  if (!s.serviceHasKey) return { shown: classic({ reason: 'no_key', basemap }) };
  const views = s.viewsToday ?? 0;
  if (s.classicUntil && s.classicUntil > s.now) return { shown: classic({ reason: 'heavy_traffic', basemap, until: s.classicUntil, views }) };
  if (views > s.limit) {
    const until = new Date(s.now.getTime() + HEAVY_TRAFFIC_LIMIT_MS);
    return { shown: classic({ reason: 'heavy_traffic', basemap, until, views }), startLimitUntil: until };
  }
  return { shown: { kind: 'tiles', basemap, keyOf: 'service' } };
}
