// Who may see and change a map. Editors count only while the map has collaboration on;
// viewers only while its visibility is `select`; an unlisted map is seen by others only with
// its link key (the unguessable part of its link: lib/linkKeys.ts), or by the people its owner
// named (editors while collaboration is off, viewers named while it was `select`).
import { AppError } from './errors.js';
import { sameLinkKey } from './linkKeys.js';
import type { MapRecord, MemberRole } from './maps.js';

export type Access = 'owner' | 'editor' | 'viewer' | 'none';

/**
 * Public and unlisted maps: anyone with the address sees them (an unlisted map's address carries
 * its link key), so answers at that address may be kept by shared caches.
 */
export const visibleToAnyone = (map: Pick<MapRecord, 'visibility'>): boolean => map.visibility === 'public' || map.visibility === 'unlisted';

/**
 * The caller's access to the map: `givenKey` is the link key their request carried (in the
 * address, or map/get's `link_key`), undefined when it carried none.
 */
export function accessTo(
  map: Pick<MapRecord, 'ownerId' | 'visibility' | 'collaborate' | 'linkKey'>,
  userId: number,
  member: MemberRole | undefined,
  givenKey?: string,
): Access {
  if (map.ownerId === userId) return 'owner';
  if (member === 'editor' && map.collaborate) return 'editor';
  if (map.visibility === 'public') return 'viewer';
  if (map.visibility === 'unlisted' && (member !== undefined || sameLinkKey(givenKey, map.linkKey))) return 'viewer';
  if (member === 'viewer' && map.visibility === 'select') return 'viewer';
  return 'none';
}

export const canView = (access: Access): boolean => access !== 'none';

/**
 * Whether the user (null: nobody signed in) may see the map found with their role (undefined: no
 * map), with the link key their request carried: pages and files.
 */
export const maySee = (found: { map: MapRecord; role: MemberRole | undefined } | undefined, userId: number | null, givenKey?: string): boolean =>
  found !== undefined && canView(accessTo(found.map, userId ?? 0, found.role, givenKey));
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
  givenKey?: string,
): { map: MapRecord; access: Access } {
  const access = found ? accessTo(found.map, userId, found.role, givenKey) : 'none';
  if (!found || !canView(access)) throw new AppError('map_not_found', `There is no map with the id ${mapId}.`);
  if (need === 'edit' && !canEdit(access)) throw new AppError('permission_denied', 'Only the owner and editors may change this map.');
  return { map: found.map, access };
}
