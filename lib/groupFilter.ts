// feature/list's `group`: the group and its subgroups, at any depth, as the stored group ids
// (map_features.group_id keeps a group's id as JSON text: `5`, `"g1"`).
import { AppError } from './errors.js';
import type { DocumentHead, GroupId } from './geojson/model.js';

/** The stored ids of the group and of every group under it; group_not_found when the map has no such group. */
export function groupAndSubgroups(headText: string, id: GroupId): string[] {
  const groups = (JSON.parse(headText) as DocumentHead).groups ?? [];
  if (!groups.some((group) => group.id === id)) {
    throw new AppError('group_not_found', `"group": the map has no group ${JSON.stringify(id)} (a group's id, as map/get's groups list them).`);
  }
  const found = new Set<GroupId>([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const group of groups) {
      if (group.parent !== undefined && group.parent !== null && found.has(group.parent) && !found.has(group.id)) {
        found.add(group.id);
        grew = true;
      }
    }
  }
  return [...found].map((groupId) => JSON.stringify(groupId));
}
