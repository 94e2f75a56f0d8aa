import type { SkippedItem } from '../jobContracts.js';

/** At most this many skipped items are reported one by one; the rest are counted in a last entry. */
export const MAX_REPORTED_SKIPS = 100;

/** Keeps the import summary small (it travels through Temporal) however many items were skipped. */
export function capSkipped(skipped: SkippedItem[]): SkippedItem[] {
  if (skipped.length <= MAX_REPORTED_SKIPS) return skipped;
  const rest = skipped.length - MAX_REPORTED_SKIPS;
  return [...skipped.slice(0, MAX_REPORTED_SKIPS), { reason: `and ${rest} more item${rest === 1 ? '' : 's'} skipped` }];
}
