// How appended groups join a map's groups, computed from the groups alone, so the features can
// be appended wherever they are (inside PostgreSQL by the append repository, which never loads
// the map's features into this process).
import { AppError } from '../errors.js';
import { IntegerIds } from './integerIds.js';
import { setOwn } from './json-data.js';
import { RESERVED_TOP_LEVEL_KEYS, type DocumentHead, type GroupId, type MapFeature, type MapGroup } from './model.js';

export interface AppendOptions {
  /** Put the appended content into a new group with this title (added to the target). */
  newGroupTitle?: string;
  /**
   * With newGroupTitle: keep the incoming groups, below the new group (it becomes the parent of
   * every incoming top-level group, and the group of every incoming feature without a group).
   * This is what table imports do. Without it, incoming groups are dropped and every incoming
   * feature goes directly into the new group.
   */
  keepSubgroups?: boolean;
}

export interface GroupAppendPlan {
  /** Groups to add after the map's own, with their final ids and parents. */
  groupsToAdd: MapGroup[];
  /** An appended group id → its id in the map (only ids that change or stay are listed). */
  remap: Map<GroupId, GroupId>;
  /** Every appended feature goes into this group (new_group without subgroups). */
  assignAll?: GroupId;
  /** Appended features without a group go into this group (new_group with subgroups). */
  ungroupedTo?: GroupId;
}

export function planGroupAppend(
  targetGroups: readonly MapGroup[],
  incomingGroups: readonly MapGroup[],
  options: AppendOptions = {},
): GroupAppendPlan {
  const targetIds = new Set<GroupId>(targetGroups.map((g) => g.id));
  const incomingIds = new Set<GroupId>(incomingGroups.map((g) => g.id));
  let maxId = 0;
  for (const group of [...targetGroups, ...incomingGroups]) {
    if (typeof group.id === 'number' && group.id > maxId) maxId = group.id;
  }
  const ids = new IntegerIds(maxId, (id) => targetIds.has(id) || incomingIds.has(id));

  const groupsToAdd: MapGroup[] = [];
  let newGroupId: number | undefined;
  if (options.newGroupTitle !== undefined) {
    newGroupId = ids.take();
    groupsToAdd.push({ id: newGroupId, title: options.newGroupTitle });
  }
  const remap = new Map<GroupId, GroupId>();
  if (newGroupId !== undefined && !options.keepSubgroups) return { groupsToAdd, remap, assignAll: newGroupId };

  for (const group of incomingGroups) remap.set(group.id, targetIds.has(group.id) ? ids.take() : group.id);
  for (const group of incomingGroups) {
    const copy: MapGroup = { ...group, id: remap.get(group.id)! };
    const parent = group.parent !== undefined ? remap.get(group.parent) : undefined;
    if (parent !== undefined) copy.parent = parent;
    else if (newGroupId !== undefined) copy.parent = newGroupId;
    else delete copy.parent;
    groupsToAdd.push(copy);
  }
  return { groupsToAdd, remap, ungroupedTo: newGroupId };
}

/** The group an appended feature ends up in (undefined: none). */
export function appendedGroupOf(plan: GroupAppendPlan, group: unknown): GroupId | undefined {
  if (plan.assignAll !== undefined) return plan.assignAll;
  if (group === undefined || group === null) return plan.ungroupedTo;
  return plan.remap.get(group as GroupId) ?? plan.ungroupedTo;
}

/** What a map contributes to an append: its groups and the largest feature id it uses. */
export interface AppendTarget {
  groups: readonly MapGroup[];
  maxFeatureId: number;
}

export interface AppendPlan {
  groupsToAdd: MapGroup[];
  /** Top-level keys of the appended document other than type, features and groups. */
  extras: Record<string, unknown>;
  /** True when every appended feature keeps its group (the groups keep their ids). */
  keepsGroups: boolean;
  /** The next appended feature, with its id and group in the map (call in the document's order). */
  placeFeature(feature: MapFeature): MapFeature;
}

/** How the features of `incoming` (its groups and top-level keys; the features come later) join the target. */
export function planAppend(target: AppendTarget, incoming: DocumentHead, options: AppendOptions = {}): AppendPlan {
  const plan = planGroupAppend(target.groups, incoming.groups, options);
  // The map's features are not at hand to find unused ids below its largest one.
  const featureIds = new IntegerIds(target.maxFeatureId, () => {
    throw new AppError('invalid_geojson', 'the map has used up its feature ids');
  });
  const extras: Record<string, unknown> = {};
  for (const key of Object.keys(incoming)) {
    if (!RESERVED_TOP_LEVEL_KEYS.has(key)) setOwn(extras, key, incoming[key]);
  }
  let keepsGroups = plan.assignAll === undefined && plan.ungroupedTo === undefined;
  for (const [from, to] of plan.remap) if (from !== to) keepsGroups = false;
  return {
    groupsToAdd: plan.groupsToAdd,
    extras,
    keepsGroups,
    placeFeature(feature) {
      const properties: Record<string, unknown> = { ...feature.properties };
      const group = appendedGroupOf(plan, properties.group);
      if (group === undefined) delete properties.group;
      else properties.group = group;
      return { type: 'Feature', id: featureIds.take(), geometry: feature.geometry, properties };
    },
  };
}
