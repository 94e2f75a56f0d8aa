// A map's settings — title, short name, description, basemap, visibility, collaboration and the
// people named as its editors and viewers — are changed through one code path: the API's
// map/update and the map page's settings form (web/mapSettingsRoute.ts) both check their
// arguments with the schemas below and write with changeMapSettings. The form takes a little
// more than the API: the spec's map/update sets visibility to public, unlisted or private only,
// and has no collaboration or members, so `select` with its viewers and collaboration with its
// editors are the form's (sharingArgs). Who may change what is lib/access.ts's rule: editors the
// title, description, basemap and content; only the owner the visibility, the short name (the
// map's address), collaboration and the members.
import { z } from 'zod';
import type { Db } from '../db/connection.js';
import { updateMap } from '../db/maps.js';
import { findLinkableImages } from '../db/media.js';
import { findUsersByUsernames } from '../db/users.js';
import { canChangeSharing } from '../lib/access.js';
import { usernameSchema } from '../lib/accounts.js';
import { AppError, type ErrorCode } from '../lib/errors.js';
import { completedContent, type DocumentContent } from '../lib/formats/documentContent.js';
import { renderDescription } from '../lib/markdown/index.js';
import type { MapContent, MapRecord, Visibility } from '../lib/maps.js';
import { featureImage } from '../lib/media/fields.js';
import { shortNameBase } from '../lib/shortName.js';
import { mapFor } from './context.js';
import { basemapId, description, settableVisibility, shortName, title, visibility } from './schemas.js';

/** The settings map/update takes (its `map_id` and `geojson` are its own). */
export const mapSettingsArgs = {
  title: title.optional(),
  short_name: shortName.optional(),
  description: description.optional(),
  basemap: basemapId.optional(),
  visibility: settableVisibility.optional(),
};

/** How many people one map may name as editors, and as viewers. */
export const MAX_MEMBERS = 100;

const usernames = z.array(usernameSchema).max(MAX_MEMBERS, `at most ${MAX_MEMBERS} people`);

/** What only the map page's form sets: `select` visibility with its viewers, collaboration with its editors. */
export const sharingArgs = {
  visibility: visibility.optional(),
  collaborate: z.boolean().optional(),
  editor_users: usernames.optional(),
  viewer_users: usernames.optional(),
};

/** A change of settings; what is left out stays as it is. */
export interface SettingsChanges {
  title?: string | undefined;
  shortName?: string | undefined;
  description?: string | undefined;
  basemap?: string | undefined;
  visibility?: Visibility | undefined;
  collaborate?: boolean | undefined;
  /** Usernames (any case); the list replaces the map's editors. */
  editorUsers?: string[] | undefined;
  /** Usernames (any case); the list replaces the map's viewers. */
  viewerUsers?: string[] | undefined;
  /** A whole new content (map/update's `geojson`, checked by the document model). */
  geojson?: DocumentContent | undefined;
}

/** A refusal of one argument: the form shows its message next to that field. */
export class SettingRefused extends AppError {
  constructor(
    readonly argument: 'editor_users' | 'viewer_users',
    code: ErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

const OWNER_ONLY = ['visibility', 'shortName', 'collaborate', 'editorUsers', 'viewerUsers'] as const;

/** The users named, by id, in the order given (each once); unknown names and the owner refused. */
async function membersNamed(db: Db, map: MapRecord, argument: SettingRefused['argument'], names: string[]): Promise<number[]> {
  const found = new Map((await findUsersByUsernames(db, names)).map((user) => [user.username.toLowerCase(), user]));
  const unknown = names.filter((name) => !found.has(name.toLowerCase()));
  if (unknown.length > 0) {
    const list = unknown.map((name) => `"${name}"`).join(', ');
    throw new SettingRefused(argument, 'user_not_found', unknown.length === 1 ? `There is no user named ${list}.` : `There are no users named ${list}.`);
  }
  const ids = [...new Set(names.map((name) => found.get(name.toLowerCase())!.id))];
  if (ids.includes(map.ownerId)) {
    throw new SettingRefused(argument, 'invalid_arguments', `"${map.owner}" owns this map: the owner always sees and edits it, and is no editor or viewer of it.`);
  }
  return ids;
}

/**
 * Checks the caller's right to each change and writes them in one transaction; answers the map
 * as it is now. A map the caller may not see is map_not_found, one they may see but not change
 * (or whose sharing they may not change) permission_denied.
 */
export async function changeMapSettings(db: Db, userId: number, mapId: number, changes: SettingsChanges): Promise<MapRecord> {
  const { map, access } = await mapFor(db, mapId, userId, 'edit');
  if (!canChangeSharing(access) && OWNER_ONLY.some((key) => changes[key] !== undefined)) {
    throw new AppError(
      'permission_denied',
      'Only the owner may change the visibility or the short name of a map, whether others edit it and who they are; editors change its content, title, description and basemap.',
    );
  }
  const editors = changes.editorUsers && (await membersNamed(db, map, 'editor_users', changes.editorUsers));
  const viewers = changes.viewerUsers && (await membersNamed(db, map, 'viewer_users', changes.viewerUsers));
  if (editors && viewers) {
    // Usernames are unique whatever their case.
    const editorNames = new Set(changes.editorUsers!.map((name) => name.toLowerCase()));
    const both = changes.viewerUsers!.filter((name) => editorNames.has(name.toLowerCase()));
    if (both.length > 0) {
      throw new SettingRefused(
        'viewer_users',
        'invalid_arguments',
        `${both.map((name) => `"${name}"`).join(', ')} ${both.length === 1 ? 'is an editor' : 'are editors'} of this map already; a person has one role in a map (editors see it while collaboration is on).`,
      );
    }
  }
  let content: MapContent | undefined;
  if (changes.geojson) {
    const ids = changes.geojson.unfilled.map((entry) => entry.imageId);
    const images = ids.length === 0 ? [] : await findLinkableImages(db, { mapId }, ids);
    content = completedContent(changes.geojson, new Map(images.map((image) => [image.id, featureImage(image)])));
  }
  // A new description is rendered once here, in the renderer's thread within its budget, and kept for the map's page.
  const description = changes.description === map.description ? undefined : changes.description;
  const descriptionHtml = description === undefined ? undefined : (await renderDescription(description)).html;
  const updated = await updateMap(db, mapId, {
    title: changes.title,
    description,
    descriptionHtml,
    basemap: changes.basemap,
    visibility: changes.visibility,
    shortNameBase: changes.shortName === undefined ? undefined : shortNameBase(changes.shortName, changes.title),
    content,
    userId,
    collaborate: changes.collaborate,
    editors,
    viewers,
  });
  if (!updated) throw new AppError('map_not_found', `There is no map with the id ${mapId}.`);
  return updated;
}
