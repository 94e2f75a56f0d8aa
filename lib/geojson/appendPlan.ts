// How appended groups and features join a map, computed from the map's groups and next feature
// id alone: the map's features never come into this process for an append.
import { AppError } from '../errors.js';
import { withFeatureId, type FeatureRow } from '../formats/featureRows.js';
import { IntegerIds } from './integerIds.js';
import { setOwn } from './json-data.js';
import { MAX_FEATURES, RESERVED_TOP_LEVEL_KEYS, type DocumentHead, type GroupId, type MapFeature, type MapGroup } from './model.js';

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

/** What a map contributes to an append: its groups and where its next feature id starts. */
export interface AppendTarget {
  groups: readonly MapGroup[];
  nextFeatureId: number;
}

export interface AppendPlan {
  groupsToAdd: MapGroup[];
  /** Top-level keys of the appended document other than type, features and groups. */
  extras: Record<string, unknown>;
  /** True when every appended feature keeps its group (the groups keep their ids). */
  keepsGroups: boolean;
  /**
   * The next appended feature row, with its id and group in the map (call in the document's
   * order): its id changes in the text without parsing it; only a feature whose group changes
   * is parsed and written again.
   */
  placeRow(row: FeatureRow): FeatureRow;
}

/** How the features of `incoming` (its groups and top-level keys; the features come later) join the target. */
export function planAppend(target: AppendTarget, incoming: DocumentHead, options: AppendOptions = {}): AppendPlan {
  const plan = planGroupAppend(target.groups, incoming.groups, options);
  // The map's features are not at hand to find unused ids below its next one.
  const featureIds = new IntegerIds(target.nextFeatureId - 1, () => {
    throw new AppError('too_many_features', 'The map has used every feature id up to the largest a map may have; no feature can be added.');
  });
  const extras: Record<string, unknown> = {};
  for (const key of Object.keys(incoming)) {
    if (!RESERVED_TOP_LEVEL_KEYS.has(key)) setOwn(extras, key, incoming[key]);
  }
  let keepsGroups = plan.assignAll === undefined && plan.ungroupedTo === undefined;
  for (const [from, to] of plan.remap) if (from !== to) keepsGroups = false;
  const place = (feature: MapFeature, id: number): MapFeature => {
    const properties: Record<string, unknown> = { ...feature.properties };
    const group = appendedGroupOf(plan, properties.group);
    if (group === undefined) delete properties.group;
    else properties.group = group;
    return { type: 'Feature', id, geometry: feature.geometry, properties };
  };
  return {
    groupsToAdd: plan.groupsToAdd,
    extras,
    keepsGroups,
    placeRow(row) {
      const id = featureIds.take();
      const group = row.group === null ? undefined : (JSON.parse(row.group) as GroupId);
      if (appendedGroupOf(plan, group) === group) {
        const text = withFeatureId(row.text, row.id, id);
        if (text !== undefined) return { ...row, id, text };
      }
      const placed = place(JSON.parse(row.text) as MapFeature, id);
      const placedGroup = placed.properties.group as GroupId | undefined;
      return { ...row, id, group: placedGroup === undefined ? null : JSON.stringify(placedGroup), text: JSON.stringify(placed) };
    },
  };
}

/** The map's head after an append: its own keys win over the appended document's extras; the new groups follow its own. */
/**
 * An append onto the map as it is now (its head's JSON text, item count and next feature id):
 * refused when the map would hold more than MAX_FEATURES; else the plan and the map's new head.
 */
export function planAppendTo(
  current: { head: string; featureCount: number; nextFeatureId: number },
  added: number,
  incoming: DocumentHead,
  options: AppendOptions,
): { plan: AppendPlan; head: string } {
  const total = current.featureCount + added;
  if (total > MAX_FEATURES) throw new AppError('too_many_features', `The map would have ${total} items; a map holds at most ${MAX_FEATURES}.`);
  const mapHead = JSON.parse(current.head) as DocumentHead;
  const plan = planAppend({ groups: mapHead.groups ?? [], nextFeatureId: current.nextFeatureId }, incoming, options);
  return { plan, head: JSON.stringify(appendedHead(mapHead, plan)) };
}

export function appendedHead(map: DocumentHead, plan: AppendPlan): DocumentHead {
  const head = {} as DocumentHead;
  for (const [key, value] of Object.entries(plan.extras)) setOwn(head, key, value);
  for (const [key, value] of Object.entries(map)) setOwn(head, key, value);
  setOwn(head, 'groups', [...(map.groups ?? []), ...plan.groupsToAdd]);
  return head;
}
