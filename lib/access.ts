// Who may see and change a map. Editors count only while the map has collaboration on;
// viewers only while its visibility is `select`.
import { AppError } from './errors.js';
import type { MapRecord, MemberRole } from './maps.js';

export type Access = 'owner' | 'editor' | 'viewer' | 'none';

/** Public and unlisted maps: anyone with the address sees them (their files may be cached publicly). */
export const visibleToAnyone = (map: Pick<MapRecord, 'visibility'>): boolean => map.visibility === 'public' || map.visibility === 'unlisted';

export function accessTo(map: Pick<MapRecord, 'ownerId' | 'visibility' | 'collaborate'>, userId: number, member: MemberRole | undefined): Access {
  if (map.ownerId === userId) return 'owner';
  if (member === 'editor' && map.collaborate) return 'editor';
  if (visibleToAnyone(map)) return 'viewer';
  if (member === 'viewer' && map.visibility === 'select') return 'viewer';
  return 'none';
}

export const canView = (access: Access): boolean => access !== 'none';

/** Whether the user (null: nobody signed in) may see the map found with their role (undefined: no map): pages and files. */
export const maySee = (found: { map: MapRecord; role: MemberRole | undefined } | undefined, userId: number | null): boolean =>
  found !== undefined && canView(accessTo(found.map, userId ?? 0, found.role));
export const canEdit = (access: Access): boolean => access === 'owner' || access === 'editor';

/**
 * Who sees a map, who edits it and its address are the owner's to decide: editors change the
 * content, title, description and basemap, never visibility, collaboration, members or the
 * short name (which moves the map's URL).
 */
export const canChangeSharing = (access: Access): boolean => access === 'owner';

/**
 * The one access check of every operation on a map: the map (undefined when there is none) and
 * the caller's membership decide; a map the caller may not see is reported as missing, one the
 * caller may see but not change as permission_denied.
 */
export function requireMapAccess(
  found: { map: MapRecord; role: MemberRole | undefined } | undefined,
  mapId: number,
  userId: number,
  need: 'view' | 'edit',
): { map: MapRecord; access: Access } {
  const access = found ? accessTo(found.map, userId, found.role) : 'none';
  if (!found || !canView(access)) throw new AppError('map_not_found', `There is no map with the id ${mapId}.`);
  if (need === 'edit' && !canEdit(access)) throw new AppError('permission_denied', 'Only the owner and editors may change this map.');
  return { map: found.map, access };
}
