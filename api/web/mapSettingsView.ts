// What the map page's settings section shows (web/pages/mapSettingsPanel.tsx): the map's
// settings as they are (or the values a refused form sent), its editors and viewers, and the
// basemap catalogue with which provider keys the owner has. It opens at the map's address with
// `?settings=1` (the page's "Map settings" link), and after a save with `?settings=saved`.
import type { Context } from 'koa';
import type { Db } from '../../db/connection.js';
import { findMapMembers } from '../../db/maps.js';
import { listProviderKeys } from '../../db/providerKeys.js';
import { accessTo, canChangeSharing, canEdit } from '../../lib/access.js';
import { basemapCatalogue } from '../../lib/basemaps.js';
import { mapPath } from '../../lib/mapSummary.js';
import type { MapRecord, MemberRole } from '../../lib/maps.js';
import { PROVIDER_KIND_LABELS } from '../../lib/providerKeys.js';
import type { MapSettingsProps, MapSettingsValues } from '../../web/pages/mapSettingsPanel.js';
import type { SettingsRole } from './mapSettingsForm.js';
import { csrfToken } from './security.js';

/** A form sent back: its values as typed, the refusals, a preview or a message. */
export type SettingsFormState = Partial<Pick<MapSettingsProps, 'errors' | 'descriptionPreview' | 'notice' | 'error'>> & { values?: MapSettingsValues };

/** The viewer's part in the settings: the owner's whole form, an editor's, or none. */
export function settingsRoleOf(map: MapRecord, userId: number | undefined, member: MemberRole | undefined): SettingsRole | undefined {
  if (userId === undefined) return undefined;
  const access = accessTo(map, userId, member);
  if (canChangeSharing(access)) return 'owner';
  return canEdit(access) ? 'editor' : undefined;
}

async function currentValues(db: Db, map: MapRecord): Promise<MapSettingsValues> {
  const members = await findMapMembers(db, map.id);
  return {
    title: map.title,
    short_name: map.shortName,
    description: map.description,
    basemap: map.basemap,
    visibility: map.visibility,
    collaborate: map.collaborate,
    editor_users: members.editors.join(', '),
    viewer_users: members.viewers.join(', '),
  };
}

export async function mapSettingsProps(db: Db, ctx: Context, map: MapRecord, role: SettingsRole, state: SettingsFormState = {}): Promise<MapSettingsProps> {
  const [values, keys] = await Promise.all([state.values ?? currentValues(db, map), listProviderKeys(db, map.ownerId)]);
  const saved = new Set(keys.map((key) => key.kind));
  return {
    action: `/maps/${map.id}/settings`,
    csrf: csrfToken(ctx),
    role,
    owner: map.owner,
    closeHref: mapPath(map),
    values,
    errors: state.errors ?? {},
    basemaps: basemapCatalogue().map((basemap) => {
      const kind = basemap.providerKind;
      const withKey = kind !== null && saved.has(kind);
      // An operator's basemap that needs no key is drawn from its tiles like one with the owner's key.
      const ownTiles = withKey || (kind === null && basemap.drawing.type === 'xyz');
      return {
        id: basemap.id,
        name: basemap.name,
        // A commercial basemap is drawn with the owner's key when there is one (through the service).
        preview: ownTiles ? `/maps/${map.id}/basemap-previews/${basemap.id}.png` : `/assets/basemap-previews/${basemap.id}.png`,
        // "location platform", not "location platform (API key)": the sentence says "key" itself.
        ...(kind ? { key: { label: PROVIDER_KIND_LABELS[kind].replace(/ \(.*\)$/, ''), saved: withKey } } : {}),
      };
    }),
    ...(state.descriptionPreview !== undefined ? { descriptionPreview: state.descriptionPreview } : {}),
    ...(state.notice ? { notice: state.notice } : {}),
    ...(state.error ? { error: state.error } : {}),
  };
}

/** The notice after a save (`?settings=saved`, and `wanted=` the short name asked for when another map of the owner's has it). */
function savedNotice(ctx: Context, map: MapRecord): string {
  const wanted = typeof ctx.query.wanted === 'string' ? ctx.query.wanted : undefined;
  if (wanted && wanted !== map.shortName) {
    return `Settings saved. Another of your maps has the short name “${wanted}”, so this one is at ${mapPath(map)}.`;
  }
  return 'Settings saved.';
}

/** The settings section of a GET of the map's page: when asked for (`?settings=…`) by its owner or an editor. */
export async function settingsOnPage(db: Db, ctx: Context, map: MapRecord, userId: number | undefined, member: MemberRole | undefined): Promise<MapSettingsProps | undefined> {
  const asked = ctx.query.settings;
  const role = settingsRoleOf(map, userId, member);
  if (asked === undefined || !role) return undefined;
  return mapSettingsProps(db, ctx, map, role, asked === 'saved' ? { notice: savedNotice(ctx, map) } : {});
}
