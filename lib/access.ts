// Who may see and change a map. Editors count only while the map has collaboration on;
// viewers only while its visibility is `select`.
import type { MapRecord, MemberRole } from './maps.js';

export type Access = 'owner' | 'editor' | 'viewer' | 'none';

export function accessTo(map: Pick<MapRecord, 'ownerId' | 'visibility' | 'collaborate'>, userId: number, member: MemberRole | undefined): Access {
  if (map.ownerId === userId) return 'owner';
  if (member === 'editor' && map.collaborate) return 'editor';
  if (map.visibility === 'public' || map.visibility === 'unlisted') return 'viewer';
  if (member === 'viewer' && map.visibility === 'select') return 'viewer';
  return 'none';
}

export const canView = (access: Access): boolean => access !== 'none';
export const canEdit = (access: Access): boolean => access === 'owner' || access === 'editor';

/**
 * Who sees a map, who edits it and its address are the owner's to decide: editors change the
 * content, title, description and basemap, never visibility, collaboration, members or the
 * short name (which moves the map's URL).
 */
export const canChangeSharing = (access: Access): boolean => access === 'owner';
