import { describe, expect, it } from 'vitest';
import { EditState } from '../../web/app/editState.js';
import type { MapFeature } from '../../web/app/mapFeature.js';

const point = (id: number, title: string): MapFeature => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title } });

function stateWith(...features: MapFeature[]) {
  const shown: [number, string | null][] = [];
  const state = new EditState(features, 7, (id, feature) => shown.push([id, feature ? String(feature.properties?.title) : null]));
  return { state, shown };
}

describe('EditState', () => {
  it('keeps what changed, and sends only that', () => {
    const { state, shown } = stateWith(point(1, 'one'), point(2, 'two'));
    state.apply({ id: 1, before: point(1, 'one'), after: point(1, 'ONE') });
    state.apply({ id: 2, before: point(2, 'two'), after: null });
    state.apply({ id: -1, before: null, after: point(-1, 'new') });
    expect(state.pending()).toBe(3);
    expect(shown).toEqual([[1, 'ONE'], [2, null], [-1, 'new']]);
    const { body } = state.changes();
    expect(body).toEqual({
      revision: 7,
      features: {
        added: [{ key: '-1', feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'new' } } }],
        changed: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'ONE' }, id: 1 }],
        deleted: [2],
      },
    });
  });

  it('undoes and redoes every edit; a new item undone is no change at all', () => {
    const { state } = stateWith(point(1, 'one'));
    state.apply({ id: -1, before: null, after: point(-1, 'new') });
    state.apply({ id: 1, before: point(1, 'one'), after: point(1, 'ONE') });
    state.undo();
    state.undo();
    expect([state.pending(), state.features.has(-1), state.features.get(1)?.properties?.title, state.canUndo(), state.canRedo()]).toEqual([1, false, 'one', false, true]);
    state.redo();
    expect(state.features.get(-1)?.properties?.title).toBe('new');
    // A new edit ends the redo list.
    state.apply({ id: 1, before: point(1, 'one'), after: point(1, 'uno') });
    expect(state.canRedo()).toBe(false);
  });

  it('after a save, renames new items everywhere, and keeps as unsaved what was edited while the save was on its way', () => {
    const { state, shown } = stateWith(point(1, 'one'));
    state.apply({ id: -1, before: null, after: point(-1, 'new') });
    state.apply({ id: 1, before: point(1, 'one'), after: point(1, 'ONE') });
    const sent = state.changes();
    // Edited again before the answer came.
    state.apply({ id: 1, before: point(1, 'ONE'), after: point(1, 'One!') });
    shown.length = 0;
    const renames = state.saved(sent, { revision: 8, ids: { '-1': 5 } });
    expect([...renames]).toEqual([[-1, 5]]);
    expect(shown).toEqual([[-1, null], [5, 'new']]);
    expect([state.revision, state.pending(), state.features.get(5)?.id]).toEqual([8, 1, 5]);
    expect(state.changes().body.features.changed).toEqual([expect.objectContaining({ id: 1, properties: { title: 'One!' } })]);
    // The history follows the rename: undoing the addition removes item 5, which is now a deletion.
    state.undo();
    state.undo();
    state.undo();
    expect(state.features.has(5)).toBe(false);
    expect(state.changes().body.features.deleted).toEqual([5]);
  });

  it('settles conflicts: theirs replaces mine; mine is sent again, and an item they deleted comes back as new', () => {
    const { state } = stateWith(point(1, 'one'), point(2, 'two'));
    state.apply({ id: 1, before: point(1, 'one'), after: point(1, 'mine') });
    state.apply({ id: 2, before: point(2, 'two'), after: point(2, 'mine too') });
    state.takeTheirs([{ id: 1, mine: 'changed', theirs: point(1, 'theirs') }], 9);
    expect([state.revision, state.features.get(1)?.properties?.title, state.pending()]).toEqual([9, 'theirs', 1]);
    let next = -100;
    state.keepMine([{ id: 2, mine: 'changed', theirs: null }], 10, () => next--);
    expect(state.features.has(2)).toBe(false);
    const { body } = state.changes();
    expect([body.revision, body.features.changed, body.features.added.map((a) => a.key)]).toEqual([10, [], ['-100']]);
  });

  it('undoes a step of several items and the groups as one, and sends the groups with those deleted', () => {
    const shownGroups: string[][] = [];
    const grouped = (id: number, title: string, group?: number | string): MapFeature => ({ ...point(id, title), properties: { title, ...(group !== undefined ? { group } : {}) } });
    const state = new EditState([grouped(1, 'a', 1), grouped(2, 'b', 1), grouped(3, 'c')], 4, () => undefined, [{ id: 1, title: 'Trails' }], (groups) =>
      shownGroups.push(groups.map((g) => g.title)),
    );
    expect([state.pending(), state.changes().body.groups]).toEqual([0, undefined]);
    // The group deleted with its two items moved out: one step.
    state.applyStep({
      edits: [1, 2].map((id) => ({ id, before: state.features.get(id)!, after: grouped(id, id === 1 ? 'a' : 'b') })),
      groups: { before: state.groups, after: [{ id: 'gnew', title: 'New' }] },
    });
    expect(state.pending()).toBe(3);
    const { body } = state.changes();
    expect([body.groups, body.deletedGroups, body.features.changed.length]).toEqual([[{ id: 'gnew', title: 'New' }], [1], 2]);
    state.undo();
    // The groups are as saved again (the two items count as changed, as any item edited and undone).
    expect([state.groupsChanged(), state.pending(), state.features.get(2)?.properties?.group, state.groups]).toEqual([false, 2, 1, [{ id: 1, title: 'Trails' }]]);
    state.redo();
    expect(shownGroups).toEqual([['New'], ['Trails'], ['New']]);
    // Saved: the groups are no longer pending; a group others filled meanwhile comes back.
    const sent = state.changes();
    state.saved(sent, { revision: 5, ids: {} });
    expect([state.pending(), state.groupsChanged()]).toEqual([0, false]);
    state.applyStep({ edits: [], groups: { before: state.groups, after: [] } });
    expect(state.changes().body.deletedGroups).toEqual(['gnew']);
    state.keepGroups(['gnew'], 6);
    expect([state.revision, state.groups, state.pending()]).toEqual([6, [{ id: 'gnew', title: 'New' }], 0]);
  });
});
