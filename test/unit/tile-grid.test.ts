import { describe, expect, it } from 'vitest';
import { worldX, worldY } from '../../lib/render/mercator.js';
import { tileGrid as gridOf, tileZoomFor, type TileSource } from '../../lib/render/tileGrid.js';

/** The grid of a view given by its centre, framed as the renderer frames (its one projection). */
const tileGrid = (view: { lon: number; lat: number; zoom: number; width: number; height: number }, source: TileSource) => {
  const worldSize = 256 * 2 ** view.zoom;
  const left = worldX(view.lon) - view.width / 2 / worldSize;
  const top = worldY(view.lat) - view.height / 2 / worldSize;
  return gridOf({ zoom: view.zoom, width: view.width, height: view.height, left, top }, source);
};

const at = (grid: ReturnType<typeof tileGrid>) =>
  grid.placements.map(({ tile, left, top, width, height }) => `${tile.z}/${tile.x}/${tile.y}@${left},${top} ${width}x${height}`);

describe('tileGrid', () => {
  it('covers centre 0,0 at zoom 1 in 512×512 with the four zoom-1 tiles', () => {
    const grid = tileGrid({ lon: 0, lat: 0, zoom: 1, width: 512, height: 512 }, { tileSize: 256, maxZoom: 19 });
    expect(grid.zoom).toBe(1);
    expect(grid.scale).toBe(1);
    expect(at(grid)).toEqual(['1/0/0@0,0 256x256', '1/1/0@256,0 256x256', '1/0/1@0,256 256x256', '1/1/1@256,256 256x256']);
    expect(grid.tiles).toEqual([{ z: 1, x: 0, y: 0 }, { z: 1, x: 1, y: 0 }, { z: 1, x: 0, y: 1 }, { z: 1, x: 1, y: 1 }]);
  });

  it('uses one zoom less for 512-px tiles (one 512 tile covers four 256 tiles of the next zoom)', () => {
    const grid = tileGrid({ lon: 0, lat: 0, zoom: 1, width: 512, height: 512 }, { tileSize: 512, maxZoom: 22 });
    expect(grid.zoom).toBe(0);
    expect(at(grid)).toEqual(['0/0/0@0,0 512x512']);
  });

  it('draws tiles at 1–2× for fractional zooms, never below 1× while the provider has the zoom', () => {
    for (const zoom of [0, 0.5, 1, 2.3, 3.99, 7.5, 12]) {
      for (const tileSize of [256, 512] as const) {
        const grid = tileGrid({ lon: 2.35, lat: 48.85, zoom, width: 300, height: 200 }, { tileSize, maxZoom: 22 });
        if (tileSize === 512 && zoom < 1) continue; // no tile zoom below 0: shrunk, not blurry
        expect(grid.scale).toBeGreaterThanOrEqual(1);
        expect(grid.scale).toBeLessThan(2);
      }
    }
    expect(tileZoomFor(2.9999999999, { tileSize: 256, maxZoom: 20 })).toBe(3);
  });

  it('stops at maxZoom and enlarges the tiles instead', () => {
    const grid = tileGrid({ lon: 0, lat: 0, zoom: 21.5, width: 256, height: 256 }, { tileSize: 256, maxZoom: 19 });
    expect(grid.zoom).toBe(19);
    expect(grid.scale).toBeCloseTo(2 ** 2.5);
  });

  it('wraps x around the antimeridian', () => {
    const grid = tileGrid({ lon: 180, lat: 0, zoom: 1, width: 512, height: 512 }, { tileSize: 256, maxZoom: 19 });
    expect(at(grid)).toEqual(['1/1/0@0,0 256x256', '1/0/0@256,0 256x256', '1/1/1@0,256 256x256', '1/0/1@256,256 256x256']);
    const west = tileGrid({ lon: -179.9, lat: 10, zoom: 4, width: 256, height: 256 }, { tileSize: 256, maxZoom: 19 });
    expect(new Set(west.tiles.map((tile) => tile.x))).toEqual(new Set([15, 0]));
  });

  it('repeats the world when the view is wider than it, and leaves rows outside the world blank', () => {
    const grid = tileGrid({ lon: 0, lat: 0, zoom: 0, width: 1024, height: 512 }, { tileSize: 256, maxZoom: 19 });
    expect(grid.tiles).toEqual([{ z: 0, x: 0, y: 0 }]);
    expect(at(grid)).toEqual(['0/0/0@-128,128 256x256', '0/0/0@128,128 256x256', '0/0/0@384,128 256x256', '0/0/0@640,128 256x256', '0/0/0@896,128 256x256']);
    const north = tileGrid({ lon: 0, lat: 85, zoom: 2, width: 256, height: 256 }, { tileSize: 256, maxZoom: 19 });
    expect(north.tiles.every((tile) => tile.y === 0)).toBe(true);
    expect(north.placements.every((placement) => placement.top >= 0)).toBe(true);
  });

  it('places tiles edge to edge in whole pixels at fractional zooms', () => {
    const grid = tileGrid({ lon: 2.3522, lat: 48.8566, zoom: 11.37, width: 640, height: 480 }, { tileSize: 256, maxZoom: 19 });
    const rows = new Map<number, typeof grid.placements>();
    for (const placement of grid.placements) rows.set(placement.top, [...(rows.get(placement.top) ?? []), placement]);
    for (const row of rows.values()) {
      for (let i = 1; i < row.length; i += 1) expect(row[i]!.left).toBe(row[i - 1]!.left + row[i - 1]!.width);
    }
    const covered = (edge: number[]) => [Math.min(...edge), Math.max(...edge)];
    expect(covered(grid.placements.map((p) => p.left))[0]).toBeLessThanOrEqual(0);
    expect(Math.max(...grid.placements.map((p) => p.left + p.width))).toBeGreaterThanOrEqual(640);
    expect(Math.max(...grid.placements.map((p) => p.top + p.height))).toBeGreaterThanOrEqual(480);
    // Paris is in tile 11/1037/704 (OSM's numbering).
    expect(grid.tiles).toContainEqual({ z: 11, x: 1037, y: 704 });
  });

  it('takes the renderer\'s View as it is', () => {
    expect(at(gridOf({ zoom: 1, width: 512, height: 512, left: 0, top: 0 }, { tileSize: 256, maxZoom: 19 }))).toEqual(
      at(tileGrid({ lon: 0, lat: 0, zoom: 1, width: 512, height: 512 }, { tileSize: 256, maxZoom: 19 })),
    );
  });

  it('refuses nonsense views', () => {
    expect(() => tileGrid({ lon: 0, lat: 0, zoom: Number.NaN, width: 10, height: 10 }, { tileSize: 256, maxZoom: 19 })).toThrow(RangeError);
    expect(() => tileGrid({ lon: 0, lat: 0, zoom: 3, width: 0, height: 10 }, { tileSize: 256, maxZoom: 19 })).toThrow(RangeError);
  });
});
