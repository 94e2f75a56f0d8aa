// The groups' tools as edits (./itemList.ts asks, ./editState.ts keeps them): each change of the
// groups is one step of the history together with the items it moved or deleted — a group
// deleted takes its items and subgroups to its parent, or deletes them with it.
import { withProperty, type EditState, type Edit, type Step } from './editState.js';
import { addGroup, groupOf, moveGroup, removeGroupAndInside, removeGroupKeepInside, renameGroup, withinGroup, type GroupId, type MapGroup } from './groups.js';
import type { GroupActions } from './itemList.js';

export interface GroupEditHooks {
  /** Makes a step (the editor sends its items to the map in one update). */
  apply(step: Step): void;
  /** A new group was made: its form opens with the title chosen. */
  created(id: GroupId): void;
  /** Before items are moved or deleted by a group's deletion (the selection ends). */
  deleting(): void;
}

export function groupEdits(state: EditState, hooks: GroupEditHooks): GroupActions {
  const change = (after: MapGroup[] | undefined, edits: Edit[] = []) => {
    if (after) hooks.apply({ edits, groups: { before: state.groups, after } });
  };
  return {
    newGroup() {
      const { groups, id } = addGroup(state.groups, 'New group');
      change(groups);
      hooks.created(id);
    },
    renameGroup: (id, title) => change(renameGroup(state.groups, id, title)),
    moveGroup: (id, parent, before) => change(moveGroup(state.groups, id, parent, before)),
    deleteGroup(id, content) {
      const gone = groupOf(state.groups, id);
      if (!gone) return;
      hooks.deleting();
      const inside = content === 'delete' ? withinGroup(state.groups, id) : new Set([String(id)]);
      const parent = groupOf(state.groups, gone.parent)?.id;
      const edits: Edit[] = [];
      for (const feature of state.features.values()) {
        const group = feature.properties?.group;
        if (group === undefined || group === null || !inside.has(String(group))) continue;
        edits.push({ id: feature.id, before: feature, after: content === 'delete' ? null : withProperty(feature, 'group', parent) });
      }
      change(content === 'delete' ? removeGroupAndInside(state.groups, id) : removeGroupKeepInside(state.groups, id), edits);
    },
    moveItem(id, group) {
      const before = state.features.get(id);
      if (before && before.properties?.group !== group) hooks.apply({ edits: [{ id, before, after: withProperty(before, 'group', group) }] });
    },
  };
}
