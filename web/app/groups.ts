// A map's groups as the editor changes them: `{id, title, parent?}` in one flat list whose order
// is the order of the list beside the map (a group's subgroups in the order they come in it).
// Every function answers a new list and leaves the one it got alone (the edit history keeps both).
import type { GroupId, MapGroup } from '../../lib/geojson/model.js';

export type { GroupId, MapGroup };

/**
 * A new group's id: random text, so two people adding groups to the same map at the same time
 * never give two groups one id (the save merges groups others added meanwhile by their ids).
 */
export function newGroupId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return `g${[...bytes].map((byte) => byte.toString(36).padStart(2, '0')).join('')}`;
}

const same = (a: GroupId | undefined, b: GroupId | undefined) => a !== undefined && b !== undefined && String(a) === String(b);

export const groupOf = (groups: readonly MapGroup[], id: GroupId | undefined): MapGroup | undefined =>
  id === undefined ? undefined : groups.find((group) => same(group.id, id));

/** The group's parent if that group exists (a parent missing from the list counts as none). */
export const parentOf = (groups: readonly MapGroup[], group: MapGroup): MapGroup | undefined => groupOf(groups, group.parent);

/** The group and every group inside it, at any depth. */
export function withinGroup(groups: readonly MapGroup[], id: GroupId): Set<string> {
  const inside = new Set([String(id)]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const group of groups) {
      if (group.parent !== undefined && inside.has(String(group.parent)) && !inside.has(String(group.id))) {
        inside.add(String(group.id));
        grown = true;
      }
    }
  }
  return inside;
}

/** "Trails › North": the titles from the top group down to this one. */
export function groupPath(groups: readonly MapGroup[], id: GroupId): string {
  const titles: string[] = [];
  for (let group = groupOf(groups, id), guard = 0; group && guard < 100; group = parentOf(groups, group), guard++) titles.unshift(group.title);
  return titles.join(' › ');
}

/** The groups in the order the list shows them (parents before their subgroups), each with its depth. */
export function groupOutline(groups: readonly MapGroup[]): { group: MapGroup; depth: number }[] {
  const outline: { group: MapGroup; depth: number }[] = [];
  const visit = (parent: MapGroup | undefined, depth: number) => {
    for (const group of groups) {
      if (parentOf(groups, group) !== parent) continue;
      outline.push({ group, depth });
      if (depth < 100) visit(group, depth + 1);
    }
  };
  visit(undefined, 0);
  return outline;
}

export function addGroup(groups: readonly MapGroup[], title: string, parent?: GroupId): { groups: MapGroup[]; id: string } {
  const id = newGroupId();
  return { groups: [...groups, { id, title, ...(parent !== undefined ? { parent } : {}) }], id };
}

export function renameGroup(groups: readonly MapGroup[], id: GroupId, title: string): MapGroup[] {
  return groups.map((group) => (same(group.id, id) ? { ...group, title } : group));
}

/**
 * Moves a group into `parent` (undefined: the top), before the group `before` (one of that
 * parent's groups; undefined: after the last). Undefined when the move is impossible: a group
 * cannot go inside itself or one of its own subgroups.
 */
export function moveGroup(groups: readonly MapGroup[], id: GroupId, parent: GroupId | undefined, before?: GroupId): MapGroup[] | undefined {
  const moving = groupOf(groups, id);
  if (!moving) return undefined;
  if (parent !== undefined && withinGroup(groups, id).has(String(parent))) return undefined;
  if (before !== undefined && same(before, id)) return [...groups];
  const { parent: _old, ...rest } = moving;
  const moved: MapGroup = parent === undefined ? rest : { ...rest, parent };
  const others = groups.filter((group) => group !== moving);
  let at = before === undefined ? -1 : others.findIndex((group) => same(group.id, before));
  if (at < 0) {
    // After the last of the parent's groups (or at the end of the list).
    const siblings = others.map((group, index) => ({ group, index })).filter(({ group }) => (parent === undefined ? !parentOf(others, group) : same(group.parent, parent)));
    at = siblings.length > 0 ? siblings[siblings.length - 1]!.index + 1 : others.length;
  }
  return [...others.slice(0, at), moved, ...others.slice(at)];
}

/** The groups without this one and those inside it (when its content is deleted with it). */
export function removeGroupAndInside(groups: readonly MapGroup[], id: GroupId): MapGroup[] {
  const inside = withinGroup(groups, id);
  return groups.filter((group) => !inside.has(String(group.id)));
}

/** The groups without this one; its subgroups move up into its parent. */
export function removeGroupKeepInside(groups: readonly MapGroup[], id: GroupId): MapGroup[] {
  const gone = groupOf(groups, id);
  if (!gone) return [...groups];
  return groups
    .filter((group) => group !== gone)
    .map((group) => {
      if (!same(group.parent, id)) return group;
      const { parent: _old, ...rest } = group;
      return gone.parent === undefined ? rest : { ...rest, parent: gone.parent };
    });
}
