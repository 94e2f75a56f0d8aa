// The batching of basemap tile counts (lib/tileCounts.ts): a map's count written when it reaches a
// batch, by the request that completes it; the rest on a timer; a failed write reported, not thrown.
import { describe, expect, it, vi } from 'vitest';
import { TileCounts } from '../../lib/tileCounts.js';

describe('TileCounts', () => {
  it('writes a map once it has a batch, and what is pending on its timer', async () => {
    const writes: [number, number][][] = [];
    const counts = new TileCounts({ write: async (tiles) => void writes.push([...tiles]), batch: 3, everyMs: 50, onError: (error) => expect.fail(String(error)) });
    await counts.count(1);
    await counts.count(1);
    await counts.count(2);
    expect(writes).toEqual([]);
    await counts.count(1); // the third of map 1: written by this call, before it resolves
    expect(writes).toEqual([[[1, 3]]]);
    await vi.waitFor(() => expect(writes).toEqual([[[1, 3]], [[2, 1]]]), { timeout: 5_000 });
  });

  it('reports a failed write and goes on counting', async () => {
    const errors: unknown[] = [];
    const counts = new TileCounts({ write: () => Promise.reject(new Error('database down')), batch: 1, everyMs: 60_000, onError: (error) => errors.push(error) });
    await counts.count(7);
    await counts.count(7);
    expect(errors.map((error) => (error as Error).message)).toEqual(['database down', 'database down']);
  });
});
