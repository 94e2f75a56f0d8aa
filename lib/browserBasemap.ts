// Which basemap a map's page and embed show in the browser. Built-in basemaps are always
// themselves. A commercial one is drawn from its provider's tiles (through the service, which
// adds the key) with the owner's key; without one, with the service's own key (PROVIDER_KEY_…)
// until the map passes the day's heavy-traffic limit, then on `classic` for 24 hours (the spec's
// rule); with neither key, on `classic`. An operator's basemap that needs no key (BASEMAPS_EXTRA
// without a provider kind) is always itself, through the service, and counts toward no limit.
// The owner is told why (mapPage's notice). A day's traffic
// is its page and embed views plus the tiles served with the service's key, 50 tiles to a view.
import { basemapById, DEFAULT_BASEMAP, type Basemap } from './basemaps.js';

/** How long a heavy-traffic map stays on classic. */
export const HEAVY_TRAFFIC_LIMIT_MS = 24 * 60 * 60 * 1000;

/**
 * Tiles that weigh as much as one page view in a day's traffic: a view of a map page fetches
 * 15–40 tiles of 512 px at 1280 × 800 (more when it pans and zooms), so a client that fetches
 * tiles without views (a scraper using the map as a free tile source) counts as about as many views.
 */
export const TILES_PER_VIEW = 50;

/** A map's traffic on a UTC day: page and embed views, and commercial tiles served with the service's key. */
export interface DayTraffic {
  views: number;
  tiles: number;
}

/** The day's traffic in views. */
export const trafficInViews = (day: DayTraffic): number => day.views + day.tiles / TILES_PER_VIEW;

/** When a map with this day's traffic starts a limit to classic (now), or undefined: under the limit, or one runs already. */
export function limitStartedBy(day: DayTraffic, classicUntil: Date | null, limit: number, now: Date): Date | undefined {
  if (classicUntil && classicUntil > now) return undefined;
  return trafficInViews(day) > limit ? new Date(now.getTime() + HEAVY_TRAFFIC_LIMIT_MS) : undefined;
}

export type BrowserBasemap =
  | { kind: 'builtin'; id: string; fallback?: Fallback }
  | { kind: 'tiles'; basemap: Basemap; keyOf: 'owner' | 'service' | 'none' };

/** Why a map shows on classic instead of its commercial basemap. */
export type Fallback = { reason: 'no_key'; basemap: Basemap } | ({ reason: 'heavy_traffic'; basemap: Basemap; until: Date } & DayTraffic);

export interface BasemapSituation {
  basemapId: string;
  ownerHasKey: boolean;
  serviceHasKey: boolean;
  /** The end of the map's current heavy-traffic limit (maps.classic_until), if any. */
  classicUntil: Date | null;
  /** The map's traffic today, this view counted (undefined: not a view, e.g. a tile request). */
  today?: DayTraffic;
  /** HEAVY_TRAFFIC_VIEWS: the day's traffic in views a map may have on the service's key. */
  limit: number;
  now: Date;
}

/** What to show, and the limit to record when this view starts one. */
export function chooseBrowserBasemap(s: BasemapSituation): { shown: BrowserBasemap; startLimitUntil?: Date } {
  const basemap = basemapById(s.basemapId);
  if (!basemap || basemap.drawing.type === 'builtin') return { shown: { kind: 'builtin', id: basemap?.id ?? DEFAULT_BASEMAP } };
  if (basemap.providerKind === null) return { shown: { kind: 'tiles', basemap, keyOf: 'none' } };
  const classic = (fallback: Fallback): BrowserBasemap => ({ kind: 'builtin', id: DEFAULT_BASEMAP, fallback });
  if (s.ownerHasKey) return { shown: { kind: 'tiles', basemap, keyOf: 'owner' } };
  if (!s.serviceHasKey) return { shown: classic({ reason: 'no_key', basemap }) };
  const today = s.today ?? { views: 0, tiles: 0 };
  if (s.classicUntil && s.classicUntil > s.now) return { shown: classic({ reason: 'heavy_traffic', basemap, until: s.classicUntil, ...today }) };
  const until = limitStartedBy(today, s.classicUntil, s.limit, s.now);
  if (until) return { shown: classic({ reason: 'heavy_traffic', basemap, until, ...today }), startLimitUntil: until };
  return { shown: { kind: 'tiles', basemap, keyOf: 'service' } };
}
