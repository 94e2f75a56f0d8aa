import { describe, expect, it } from 'vitest';
import { addGroup, groupOutline, groupPath, moveGroup, removeGroupAndInside, removeGroupKeepInside, renameGroup, withinGroup, type MapGroup } from '../../web/app/groups.js';

// Europe > France > Paris; Asia; numeric and text ids mixed, as documents have them.
const groups: MapGroup[] = [
  { id: 1, title: 'Europe' },
  { id: 'fr', title: 'France', parent: 1 },
  { id: 3, title: 'Asia' },
  { id: 'paris', title: 'Paris', parent: 'fr' },
];
const titles = (list: readonly MapGroup[]) => groupOutline(list).map(({ group, depth }) => `${'-'.repeat(depth)}${group.title}`);

describe("the editor's groups", () => {
  it('outlines the tree in list order, tells a path and what is inside', () => {
    expect(titles(groups)).toEqual(['Europe', '-France', '--Paris', 'Asia']);
    expect(groupPath(groups, 'paris')).toBe('Europe › France › Paris');
    expect([...withinGroup(groups, 1)].sort()).toEqual(['1', 'fr', 'paris']);
  });

  it('adds with a random text id, renames, and leaves the list it got alone', () => {
    const { groups: added, id } = addGroup(groups, 'Africa');
    expect(id).toMatch(/^g[0-9a-z]{18}$/);
    expect(addGroup(groups, 'x').id).not.toBe(id);
    expect(titles(renameGroup(added, 3, 'East Asia'))).toEqual(['Europe', '-France', '--Paris', 'East Asia', 'Africa']);
    expect(groups).toHaveLength(4);
  });

  it('moves and nests, before a sibling or last, but never into itself', () => {
    expect(titles(moveGroup(groups, 3, undefined, 1)!)).toEqual(['Asia', 'Europe', '-France', '--Paris']);
    expect(titles(moveGroup(groups, 'fr', 3)!)).toEqual(['Europe', 'Asia', '-France', '--Paris']);
    expect(titles(moveGroup(groups, 'paris', undefined)!)).toEqual(['Europe', '-France', 'Asia', 'Paris']);
    expect(moveGroup(groups, 1, 'paris')).toBeUndefined();
    expect(moveGroup(groups, 1, 1)).toBeUndefined();
    // A move to the top drops `parent` rather than keeping an empty one.
    expect(moveGroup(groups, 'fr', undefined)!.find((g) => g.id === 'fr')).toEqual({ id: 'fr', title: 'France' });
  });

  it('deletes a group with what is inside, or moves its subgroups up', () => {
    expect(titles(removeGroupAndInside(groups, 'fr'))).toEqual(['Europe', 'Asia']);
    expect(removeGroupKeepInside(groups, 'fr')).toEqual([{ id: 1, title: 'Europe' }, { id: 3, title: 'Asia' }, { id: 'paris', title: 'Paris', parent: 1 }]);
    expect(titles(removeGroupKeepInside(groups, 1))).toEqual(['France', '-Paris', 'Asia']);
  });
});
