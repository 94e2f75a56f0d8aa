// Counts the commercial tiles a process serves to browsers with the service's key, per map, and
// writes them in batches (issue 24): a map's count is written when it reaches `batch` tiles (by
// the request that brings it there, which waits for that one write), and everything still
// pending every `everyMs`. So the database sees one write per `batch` tiles of a busy map, and
// at most one a minute of a quiet one — never one per tile. Counts still pending when a process
// stops are lost (at most `batch` − 1 tiles a map, or a minute's).
import { TILES_PER_VIEW } from './browserBasemap.js';

export interface TileCountsOptions {
  /** Writes map id → tiles served since the last write (db/mapViews.ts countMapTiles and what follows). */
  write(tiles: ReadonlyMap<number, number>): Promise<void>;
  /** A map's pending count written at once when it reaches this (default: a view's worth of tiles). */
  batch?: number;
  /** Everything pending written this often (default a minute). */
  everyMs?: number;
  /** A failed write (logged by the caller; its counts are lost, the service goes on). */
  onError(error: unknown): void;
}

export class TileCounts {
  private pending = new Map<number, number>();
  private readonly batch: number;

  constructor(private readonly options: TileCountsOptions) {
    this.batch = options.batch ?? TILES_PER_VIEW;
    // Never keeps a process up: what is pending at its end is lost (see above).
    setInterval(() => void this.flush(), options.everyMs ?? 60_000).unref();
  }

  /** Counts one tile of the map; resolves once it is written when it completes a batch. */
  async count(mapId: number): Promise<void> {
    const tiles = (this.pending.get(mapId) ?? 0) + 1;
    if (tiles < this.batch) {
      this.pending.set(mapId, tiles);
      return;
    }
    this.pending.delete(mapId);
    await this.write(new Map([[mapId, tiles]]));
  }

  /** Writes everything pending. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const tiles = this.pending;
    this.pending = new Map();
    await this.write(tiles);
  }

  private async write(tiles: ReadonlyMap<number, number>): Promise<void> {
    try {
      await this.options.write(tiles);
    } catch (error) {
      this.options.onError(error);
    }
  }
}
