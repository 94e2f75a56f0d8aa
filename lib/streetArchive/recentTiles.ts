// The tiles read last, as stored in the archive (still compressed), kept in memory up to a
// number of bytes: a Map in order of use, the least recently used dropped first. Each entry
// counts its bytes and a fixed overhead (the key, the Map's slot, the buffer's object), so a
// cache of many tiny tiles stays within its cap too.

const ENTRY_OVERHEAD_BYTES = 120;

export class RecentTiles {
  private readonly tiles = new Map<number, Uint8Array>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(key: number): Uint8Array | undefined {
    const tile = this.tiles.get(key);
    if (tile) {
      this.tiles.delete(key);
      this.tiles.set(key, tile);
    }
    return tile;
  }

  set(key: number, tile: Uint8Array): void {
    const cost = tile.byteLength + ENTRY_OVERHEAD_BYTES;
    if (cost > this.maxBytes) return;
    const old = this.tiles.get(key);
    if (old) {
      this.tiles.delete(key);
      this.bytes -= old.byteLength + ENTRY_OVERHEAD_BYTES;
    }
    this.tiles.set(key, tile);
    this.bytes += cost;
    for (const [oldest, dropped] of this.tiles) {
      if (this.bytes <= this.maxBytes) break;
      this.tiles.delete(oldest);
      this.bytes -= dropped.byteLength + ENTRY_OVERHEAD_BYTES;
    }
  }

  /** Bytes held, overhead included. */
  get size(): number {
    return this.bytes;
  }

  get count(): number {
    return this.tiles.size;
  }
}
