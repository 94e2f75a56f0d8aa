// The items an import skipped, as the import summary reports them: the first 100 one by one,
// then one closing item that counts the rest, so a file of a million broken items can neither
// fill the parser's memory nor the summary (it travels through Temporal). Parsers collect with a
// SkipList; capSkipped caps a list again after notes are added to it, counting what an earlier
// closing item counted.

/** An item an import left out or changed, and why. */
export interface SkippedItem {
  reason: string;
  /** Row (tables) or line (text formats) where the item starts, when known. */
  line?: number;
}

/** At most this many skipped items are reported one by one; the rest are counted in a last entry. */
export const MAX_REPORTED_SKIPS = 100;

/** "1 point", "2 points": a count with its noun, for messages. */
export const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

const moreItem = (count: number): SkippedItem => ({ reason: `and ${plural(count, 'more item')} skipped` });
const MORE = /^and (\d+) more items? skipped$/;

/** Skips as a parser meets them: keeps the first ones, counts them all. */
export class SkipList {
  private readonly items: SkippedItem[] = [];
  /** Every skip, reported or not. */
  count = 0;
  /** The first skip (for "nothing could be imported" messages). */
  first: SkippedItem | undefined;

  add(reason: string, line?: number): void {
    this.count++;
    const item: SkippedItem = line === undefined ? { reason } : { reason, line };
    this.first ??= item;
    if (this.items.length < MAX_REPORTED_SKIPS) this.items.push(item);
  }

  /** The first skip as an example for a message: " (line 12: the reason)", or nothing. */
  example(): string {
    const first = this.first;
    return first === undefined ? '' : ` (${first.line === undefined ? '' : `line ${first.line}: `}${first.reason})`;
  }

  /** The report: the items kept, plus a closing item counting those left out. */
  result(): SkippedItem[] {
    const hidden = this.count - this.items.length;
    return hidden === 0 ? this.items : [...this.items, moreItem(hidden)];
  }
}

/** Caps a list of skipped items (a report from SkipList with more items added, say) to the report's size. */
export function capSkipped(skipped: SkippedItem[]): SkippedItem[] {
  let hidden = 0;
  const listed: SkippedItem[] = [];
  for (const item of skipped) {
    const more = item.line === undefined ? MORE.exec(item.reason) : null;
    if (more) hidden += Number(more[1]);
    else listed.push(item);
  }
  if (hidden === 0 && listed.length <= MAX_REPORTED_SKIPS) return skipped;
  hidden += Math.max(0, listed.length - MAX_REPORTED_SKIPS);
  return [...listed.slice(0, MAX_REPORTED_SKIPS), moreItem(hidden)];
}
