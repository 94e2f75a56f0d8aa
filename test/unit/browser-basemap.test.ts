import { afterEach, describe, expect, it } from 'vitest';
import { useExtraBasemaps } from '../../lib/basemaps.js';
import { chooseBrowserBasemap, HEAVY_TRAFFIC_LIMIT_MS, limitStartedBy, TILES_PER_VIEW, type BasemapSituation } from '../../lib/browserBasemap.js';

const now = new Date('2026-11-24T12:00:00Z');
const situation = (given: Partial<BasemapSituation>): BasemapSituation => ({
  basemapId: 'mapbox-streets',
  ownerHasKey: false,
  serviceHasKey: true,
  classicUntil: null,
  today: { views: 1, tiles: 0 },
  limit: 1000,
  now,
  ...given,
});

afterEach(() => useExtraBasemaps([]));

describe('chooseBrowserBasemap', () => {
  it('shows built-in basemaps as themselves, and an unknown id as classic', () => {
    expect(chooseBrowserBasemap(situation({ basemapId: 'dark' })).shown).toEqual({ kind: 'builtin', id: 'dark' });
    expect(chooseBrowserBasemap(situation({ basemapId: 'gone' })).shown).toEqual({ kind: 'builtin', id: 'classic' });
  });

  it("shows an operator's basemap that needs no key as itself, at any traffic, with no key", () => {
    useExtraBasemaps([{ id: 'ours', name: 'Ours', attribution: 'OSM', providerKind: null, drawing: { type: 'xyz', url: 'https://t.example/{z}/{x}/{y}.png', tileSize: 256, maxZoom: 19 } }]);
    const chosen = chooseBrowserBasemap(situation({ basemapId: 'ours', serviceHasKey: false, today: { views: 50_000, tiles: 0 } }));
    expect(chosen).toEqual({ shown: { kind: 'tiles', basemap: expect.objectContaining({ id: 'ours' }), keyOf: 'none' } });
  });

  it("uses the owner's key whatever the traffic, else the service's below the limit", () => {
    expect(chooseBrowserBasemap(situation({ ownerHasKey: true, today: { views: 50_000, tiles: 0 }, classicUntil: new Date(now.getTime() + 1000) })).shown).toMatchObject({ kind: 'tiles', keyOf: 'owner' });
    expect(chooseBrowserBasemap(situation({ today: { views: 1000, tiles: 0 } })).shown).toMatchObject({ kind: 'tiles', keyOf: 'service' });
  });

  it('starts a 24-hour limit at the first view over it, keeps it while it runs, and ends it after', () => {
    const over = chooseBrowserBasemap(situation({ today: { views: 1001, tiles: 0 } }));
    expect(over.shown).toMatchObject({ kind: 'builtin', id: 'classic', fallback: { reason: 'heavy_traffic', views: 1001, tiles: 0 } });
    expect(over.startLimitUntil).toEqual(new Date(now.getTime() + HEAVY_TRAFFIC_LIMIT_MS));
    const running = chooseBrowserBasemap(situation({ today: { views: 3, tiles: 0 }, classicUntil: new Date(now.getTime() + 60_000) }));
    expect(running.shown).toMatchObject({ kind: 'builtin', fallback: { reason: 'heavy_traffic' } });
    expect(running.startLimitUntil).toBeUndefined();
    expect(chooseBrowserBasemap(situation({ today: { views: 3, tiles: 0 }, classicUntil: new Date(now.getTime() - 1) })).shown).toMatchObject({ kind: 'tiles', keyOf: 'service' });
  });

  it('counts the tiles served with the service key toward the limit, 50 to a view', () => {
    expect(TILES_PER_VIEW).toBe(50);
    const tiles = chooseBrowserBasemap(situation({ today: { views: 990, tiles: 10 * 50 + 1 } }));
    expect(tiles.shown).toMatchObject({ kind: 'builtin', fallback: { reason: 'heavy_traffic', views: 990, tiles: 501 } });
    expect(chooseBrowserBasemap(situation({ today: { views: 990, tiles: 10 * 50 } })).shown).toMatchObject({ kind: 'tiles' });
    // Tiles alone (no page views at all) start it too; a running limit is not started again.
    expect(limitStartedBy({ views: 0, tiles: 50_001 }, null, 1000, now)).toEqual(new Date(now.getTime() + HEAVY_TRAFFIC_LIMIT_MS));
    expect(limitStartedBy({ views: 0, tiles: 50_001 }, new Date(now.getTime() + 1), 1000, now)).toBeUndefined();
    expect(limitStartedBy({ views: 0, tiles: 50_000 }, null, 1000, now)).toBeUndefined();
  });

  it('shows classic, saying a key is needed, when neither the owner nor the service has one', () => {
    expect(chooseBrowserBasemap(situation({ serviceHasKey: false })).shown).toMatchObject({ kind: 'builtin', id: 'classic', fallback: { reason: 'no_key' } });
  });
});
