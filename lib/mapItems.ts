// A map's items as its page lists them: groups and subgroups as a tree, each with how many items
// it holds (its subgroups' included), and the items (title, kind, hidden or not) under their group.
// A text label (lib/textLabels.ts) is of kind `text`.
import { swatchOf, type ItemSwatch } from './itemSwatch.js';
import { isTextLabel } from './textLabels.js';

/** What a map's page reads of its content without reading it whole (db/mapPage.ts). */
export interface MapPageContent {
  /** The head's JSON text (groups and other top-level keys). */
  head: string;
  features: { id: number; text: string }[];
  /** Feature counts by group id (null: not in a group). */
  groupCounts: { groupId: string | null; count: number }[];
  total: number;
}

export interface ListedItem {
  id: number;
  title: string;
  kind: 'point' | 'line' | 'area' | 'text' | 'item';
  hidden: boolean;
  /** Its colour and icon, as the map draws it (lib/itemSwatch.ts). */
  swatch: ItemSwatch;
}

export interface ItemGroup {
  id: string;
  title: string;
  count: number;
  groups: ItemGroup[];
  items: ListedItem[];
}

export interface ItemTree {
  /** Items in no group, and the top-level groups. */
  root: ItemGroup;
  /** Items not listed (a map with more than the page lists). */
  unlisted: number;
}

const KINDS: Record<string, ListedItem['kind']> = {
  Point: 'point',
  MultiPoint: 'point',
  LineString: 'line',
  MultiLineString: 'line',
  Polygon: 'area',
  MultiPolygon: 'area',
};

const UNTITLED: Record<ListedItem['kind'], string> = { point: 'Untitled point', line: 'Untitled line', area: 'Untitled area', text: 'Untitled text', item: 'Untitled item' };

/**
 * A stored group id (map_features.group_id holds it as JSON text: `5`, `"g1"`) as the tree keys
 * groups: String(id) of the head's id, so `"g1"` → `g1` and `5` → `5`.
 */
function groupKey(stored: string): string {
  try {
    return String(JSON.parse(stored));
  } catch {
    return stored; // not JSON: kept as it is
  }
}

/** The tree of the head's groups with the listed features and every group's count. */
export function itemTree(
  headText: string,
  features: readonly { id: number; text: string }[],
  groupCounts: readonly { groupId: string | null; count: number }[],
  total: number,
): ItemTree {
  const head = JSON.parse(headText) as { groups?: { id: unknown; title?: unknown; parent?: unknown }[] };
  const root: ItemGroup = { id: '', title: '', count: 0, groups: [], items: [] };
  const byId = new Map<string, ItemGroup>();
  const parents = new Map<string, string | undefined>();
  for (const group of head.groups ?? []) {
    const id = String(group.id);
    byId.set(id, { id, title: typeof group.title === 'string' && group.title.trim() ? group.title : 'Untitled group', count: 0, groups: [], items: [] });
    parents.set(id, group.parent === undefined || group.parent === null ? undefined : String(group.parent));
  }
  for (const [id, group] of byId) (byId.get(parents.get(id) ?? '') ?? root).groups.push(group);
  // Counts go up the tree: a group holds its own items and its subgroups'.
  for (const { groupId, count } of groupCounts) {
    root.count += count;
    let id = groupId === null ? undefined : groupKey(groupId);
    for (let guard = 0; id !== undefined && guard < 1000; guard++) {
      const group = byId.get(id);
      if (!group) break;
      group.count += count;
      id = parents.get(id);
    }
  }
  for (const { id, text } of features) {
    const feature = JSON.parse(text) as { geometry?: { type?: string }; properties?: Record<string, unknown> | null };
    const properties = feature.properties ?? {};
    const kind = isTextLabel(feature) ? 'text' : (KINDS[feature.geometry?.type ?? ''] ?? 'item');
    const title = typeof properties.title === 'string' && properties.title.trim() ? properties.title : UNTITLED[kind];
    const hidden = properties.visible === false || properties.visible === 0;
    const group = properties.group === undefined || properties.group === null ? undefined : byId.get(String(properties.group));
    (group ?? root).items.push({ id, title, kind, hidden, swatch: swatchOf(kind, properties) });
  }
  return { root, unlisted: Math.max(0, total - features.length) };
}
