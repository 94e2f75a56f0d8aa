// What a map's page and its embed both show: the item tree and the browser's basemap style.
import type { Db } from '../../db/connection.js';
import { readMapPageContent } from '../../db/mapPage.js';
import { browserBasemapId } from '../../lib/basemaps.js';
import { itemTree, type ItemTree } from '../../lib/mapItems.js';
import type { MapRecord } from '../../lib/maps.js';

/** Items listed; a larger map lists its first ones and says how many more it has. */
const LISTED_ITEMS = 2_000;

export async function mapItemTree(db: Db, mapId: number): Promise<ItemTree> {
  const content = await readMapPageContent(db, mapId, LISTED_ITEMS);
  return itemTree(content.head, content.features, content.groupCounts, content.total);
}

/** The MapLibre style the browser draws the map over (a commercial basemap shows as the default built-in one there, for now). */
export const browserStyleUrl = (map: Pick<MapRecord, 'basemap'>): string => `/basemaps/${browserBasemapId(map.basemap)}/style.json`;
