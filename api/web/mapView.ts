// What a map's page and its embed both show of its content: the item tree.
import type { Db } from '../../db/connection.js';
import { readMapPageContent } from '../../db/mapPage.js';
import { itemTree, type ItemTree } from '../../lib/mapItems.js';

/** Items listed; a larger map lists its first ones and says how many more it has. */
const LISTED_ITEMS = 2_000;

export async function mapItemTree(db: Db, mapId: number): Promise<ItemTree> {
  const content = await readMapPageContent(db, mapId, LISTED_ITEMS);
  return itemTree(content.head, content.features, content.groupCounts, content.total);
}
