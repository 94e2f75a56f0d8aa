// Where labels may still go: boxes already taken, kept in a coarse grid so a test costs a few
// comparisons however many labels are placed (a 100,000-point map tries many).
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const CELL = 64;

export class LabelSpace {
  private readonly cells = new Map<number, Box[]>();

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}

  /** Whether the box is inside the image and overlaps nothing taken (a cheap test before measuring text). */
  fits(box: Box): boolean {
    if (box.x < 0 || box.y < 0 || box.x + box.width > this.width || box.y + box.height > this.height) return false;
    for (const key of this.keysOf(box)) {
      for (const other of this.cells.get(key) ?? []) {
        if (box.x < other.x + other.width && other.x < box.x + box.width && box.y < other.y + other.height && other.y < box.y + box.height) return false;
      }
    }
    return true;
  }

  /** Takes the box when it is inside the image and overlaps nothing taken; true if taken. */
  take(box: Box): boolean {
    if (!this.fits(box)) return false;
    const keys = this.keysOf(box);
    for (const key of keys) {
      const list = this.cells.get(key);
      if (list) list.push(box);
      else this.cells.set(key, [box]);
    }
    return true;
  }

  private keysOf(box: Box): number[] {
    const keys: number[] = [];
    const columns = Math.ceil(this.width / CELL) + 1;
    for (let cy = Math.floor(box.y / CELL); cy <= Math.floor((box.y + box.height) / CELL); cy++) {
      for (let cx = Math.floor(box.x / CELL); cx <= Math.floor((box.x + box.width) / CELL); cx++) keys.push(cy * columns + cx);
    }
    return keys;
  }
}
