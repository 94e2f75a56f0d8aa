// Ids for features and groups that come without one.

/**
 * Hands out integer ids above `max` (starting at max + 1, at least 1). Should that pass
 * Number.MAX_SAFE_INTEGER it fills unused gaps from 1 upwards, asking `isUsed`.
 */
export class IntegerIds {
  private next: number;
  private gap = 1;

  constructor(
    max: number,
    private readonly isUsed: (id: number) => boolean,
  ) {
    this.next = Math.max(max, 0) + 1;
  }

  take(): number {
    if (this.next <= Number.MAX_SAFE_INTEGER) return this.next++;
    while (this.isUsed(this.gap)) this.gap++;
    return this.gap++;
  }
}
