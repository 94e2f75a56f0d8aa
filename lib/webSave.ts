// A save from the web editor: only what changed since the revision the editor loaded — features
// added, changed and deleted, and the groups when they changed — checked as the API checks a
// document, and merged with what others saved meanwhile (db/webSave.ts): features nobody else
// touched merge, features both changed come back as conflicts for the person to resolve.
import { z } from 'zod';
import { AppError } from './errors.js';
import { rowOf, type FeatureRow } from './formats/featureRows.js';
import { MAX_FEATURE_BYTES, featureTooLarge } from './geojson/sizeLimits.js';
import { parseDocumentHead, parseFeatureAt, parseFeatureId, type DocumentHead, type GroupId, type MapFeature, type MapGroup } from './geojson/model.js';

/** At most this many features change in one save (a bigger change is an import). */
export const MAX_SAVED_FEATURES = 50_000;

const featureId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const groupId = z.union([z.number().int(), z.string().min(1).max(200)]);

export const webSaveSchema = z.strictObject({
  /** The map revision the editor's changes were made on. */
  revision: z.number().int().min(0),
  features: z
    .strictObject({
      /** New features, each with the editor's own name for it (`key`), answered with the id it got. */
      added: z.array(z.strictObject({ key: z.string().min(1).max(100), feature: z.unknown() })).default([]),
      /** Changed features, whole, with their ids. */
      changed: z.array(z.unknown()).default([]),
      deleted: z.array(featureId).default([]),
    })
    .default({ added: [], changed: [], deleted: [] }),
  /** The groups as the editor has them (order and nesting), when they changed. */
  groups: z.array(z.unknown()).optional(),
  /** Groups the editor deleted (others' new groups, absent from `groups`, are kept). */
  deletedGroups: z.array(groupId).default([]),
});

export type WebSaveRequest = z.infer<typeof webSaveSchema>;
/** The body as the editor sends it (web/app/editState.ts builds it; webSaveSchema reads it). */
export interface WebSaveBody {
  revision: number;
  features: { added: { key: string; feature: object }[]; changed: object[]; deleted: number[] };
  groups?: MapGroup[];
  deletedGroups?: GroupId[];
}

/** A feature the editor changed or deleted that someone else saved meanwhile. */
export interface FeatureConflict {
  id: number;
  /** The feature as saved by the other person (its JSON text), or null when they deleted it. */
  theirs: string | null;
  /** What the editor did to it. */
  mine: 'changed' | 'deleted';
}

/** A group the editor deleted that others put items in meanwhile. */
export interface GroupConflict {
  group: GroupId;
  items: number;
}

/** What db/webSave.ts did: saved, or nothing written because of the conflicts. */
export type WebSaveOutcome =
  | { saved: true; revision: number; ids: Record<string, number>; merged: boolean; counts: { added: number; changed: number; deleted: number } }
  | { saved: false; revision: number; conflicts: FeatureConflict[]; groupConflicts: GroupConflict[] };

/** The save's JSON answer (HTTP 200); `image`: whether a new static image was asked for. */
export type WebSaveAnswer = Extract<WebSaveOutcome, { saved: true }> & { image: 'refreshing' | 'not_refreshed' };

/** The save's JSON answer when others changed the same things meanwhile (HTTP 409, `save_conflict`: nothing saved). */
export interface WebSaveConflictAnswer<Feature = unknown> {
  error: string;
  error_code: 'save_conflict';
  revision: number;
  conflicts: { id: number; mine: FeatureConflict['mine']; theirs: Feature | null }[];
  group_conflicts: GroupConflict[];
}

/** What a save writes, once the map's current head and next feature id are known. */
export interface SavePlan {
  upsert: FeatureRow[];
  delete: number[];
  /** The new head's JSON text, when the groups changed. */
  head?: string;
  /** The ids the added features got, by the editor's keys. */
  ids: Record<string, number>;
  /** The ids of the changed features (checked against what others did meanwhile). */
  changedIds: number[];
}

const invalid = (message: string): never => {
  throw new AppError('invalid_geojson', message);
};

/** Checks the request's shape and sizes (before the map is locked). */
export function parseWebSave(body: unknown): WebSaveRequest {
  const parsed = webSaveSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('invalid_arguments', `The save is not understood: ${issue.path.join('.') || 'the body'}: ${issue.message}.`);
  }
  const { features } = parsed.data;
  const count = features.added.length + features.changed.length + features.deleted.length;
  if (count > MAX_SAVED_FEATURES) {
    throw new AppError('invalid_arguments', `One save changes at most ${MAX_SAVED_FEATURES.toLocaleString('en')} items; this one changes ${count.toLocaleString('en')}. Import large sets as a file instead.`);
  }
  if (new Set(features.added.map((entry) => entry.key)).size !== features.added.length) invalid('two new items have the same key');
  return parsed.data;
}

/**
 * The groups after the save: the editor's list in its order, then the groups others added
 * meanwhile (neither in the editor's list nor deleted by it), at the end.
 */
function mergedGroups(current: readonly MapGroup[], mine: readonly unknown[], deleted: readonly GroupId[]): unknown[] {
  const listed = new Set(mine.map((group) => (group && typeof group === 'object' ? (group as { id?: unknown }).id : undefined)));
  const gone = new Set<unknown>(deleted);
  return [...mine, ...current.filter((group) => !listed.has(group.id) && !gone.has(group.id))];
}

export const featureText = (feature: MapFeature): string => {
  const text = JSON.stringify(feature);
  if (Buffer.byteLength(text) > MAX_FEATURE_BYTES) throw featureTooLarge(`feature ${feature.id}`);
  return text;
};

/**
 * The rows and head a save writes on the map as it is now (`head`: its head's JSON text;
 * `nextFeatureId`: the first id not handed out): new features get ids from there, every feature
 * is checked against the groups the map will have.
 */
export function planWebSave(request: WebSaveRequest, current: { head: string; nextFeatureId: number }): SavePlan {
  const currentHead = JSON.parse(current.head) as DocumentHead;
  let head: DocumentHead = currentHead;
  let headText: string | undefined;
  if (request.groups !== undefined || request.deletedGroups.length > 0) {
    const groups = mergedGroups(currentHead.groups ?? [], request.groups ?? (currentHead.groups ?? []), request.deletedGroups);
    head = parseDocumentHead({ ...currentHead, groups }).head;
    headText = JSON.stringify(head);
  }
  const groupIds = new Set<GroupId>((head.groups ?? []).map((group) => group.id));
  const upsert: FeatureRow[] = [];
  const changedIds: number[] = [];
  request.features.changed.forEach((input, index) => {
    const id = parseFeatureId((input as { id?: unknown } | null)?.id, index);
    if (id < 0) invalid(`changed item ${index} has no "id"`);
    const feature = parseFeatureAt(input, index, id, groupIds);
    changedIds.push(feature.id);
    upsert.push(rowOf(feature, featureText(feature)));
  });
  const ids: Record<string, number> = {};
  let next = current.nextFeatureId;
  request.features.added.forEach((entry, index) => {
    const feature = parseFeatureAt(entry.feature, index, next++, groupIds);
    ids[entry.key] = feature.id;
    upsert.push(rowOf(feature, featureText(feature)));
  });
  const written = new Set(changedIds);
  if (written.size !== changedIds.length) invalid('an item is changed twice in one save');
  const deleted = [...new Set(request.features.deleted)];
  if (deleted.some((id) => written.has(id))) invalid('an item is both changed and deleted in one save');
  return { upsert, delete: deleted, ...(headText !== undefined ? { head: headText } : {}), ids, changedIds };
}
