// The list of items an import skipped, capped so a file of a million broken items cannot turn
// the report into the memory problem.
import type { SkippedItem } from '../../jobContracts.js';

/** Skipped items reported one by one; past this, one closing item counts the rest. */
export const MAX_REPORTED_SKIPS = 1000;

export class SkipList {
  readonly items: SkippedItem[] = [];
  /** Every skip, reported or not. */
  count = 0;
  /** The first skip's reason (for "nothing could be imported" messages). */
  first: SkippedItem | undefined;

  add(reason: string, line?: number): void {
    this.count++;
    const item: SkippedItem = line === undefined ? { reason } : { reason, line };
    this.first ??= item;
    if (this.items.length < MAX_REPORTED_SKIPS) this.items.push(item);
  }

  /** The report: the items, plus a closing item counting those left out. */
  result(): SkippedItem[] {
    const hidden = this.count - this.items.length;
    if (hidden <= 0) return this.items;
    return [...this.items, { reason: `${hidden} more items were skipped (only the first ${MAX_REPORTED_SKIPS} are listed)` }];
  }
}
