// feature/save's plan: the API's features to add or change by id and ids to delete, made into the
// same SavePlan the web editor's save writes (lib/webSave.ts → db/webSave.ts saveWebChanges →
// db/mapFeatures.ts saveFeatures), so both keep versions and check conflicts alike. Features are
// checked as the editor's are (the document model, against the map's groups); the messages name
// each by its index in `features`.
import { AppError } from './errors.js';
import { rowOf, type FeatureRow } from './formats/featureRows.js';
import { imageToResolve } from './formats/linkMedia.js';
import { isObjectRecord } from './geojson/json-data.js';
import { parseFeatureAt, parseFeatureId, type DocumentHead, type GroupId } from './geojson/model.js';
import { mediaNotLinkable } from './media/errors.js';
import type { FeatureImage } from './media/fields.js';
import { featureText, type SavePlan } from './webSave.js';

/** At most this many features added, changed and deleted by one feature/save (a larger change is an import). */
export const MAX_FEATURE_SAVE_ITEMS = 10_000;

export interface FeatureSaveRequest {
  /** GeoJSON Features: with an `id`, the map's feature to change; without one, a new feature. */
  features: readonly unknown[];
  /** Ids of features to delete. */
  delete: readonly number[];
}

const invalid = (message: string): never => {
  throw new AppError('invalid_geojson', message);
};

/**
 * The image ids of features whose `image` has its `id` without all of `w`, `h`, `tip_color` and
 * `avg_color` (as map/update, those come from the stored image): the images to look up before
 * the plan is made.
 */
export function imagesToComplete(features: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const input of features) {
    const image = isObjectRecord(input) && isObjectRecord(input.properties) ? input.properties.image : undefined;
    if (isObjectRecord(image) && typeof image.id === 'string' && image.id !== '') ids.add(image.id);
  }
  return [...ids];
}

/**
 * The rows a save writes on the map as it is now (`head`: its head's JSON text; `nextFeatureId`:
 * the first id not handed out): new features get ids from there, in the order given; `ids` maps
 * each new feature's index in `features` to its id. `images`: the stored images the map may use,
 * by id, for the features whose `image` has its id alone (imagesToComplete).
 */
export function planFeatureSave(
  request: FeatureSaveRequest,
  current: { head: string; nextFeatureId: number },
  images: ReadonlyMap<string, FeatureImage> = new Map(),
): SavePlan {
  const head = JSON.parse(current.head) as DocumentHead;
  const groupIds = new Set<GroupId>((head.groups ?? []).map((group) => group.id));
  const upsert: FeatureRow[] = [];
  const changedIds: number[] = [];
  const ids: Record<string, number> = {};
  let next = current.nextFeatureId;
  request.features.forEach((input, index) => {
    if (!isObjectRecord(input)) invalid(`feature index ${index} is not an object`);
    const given = parseFeatureId((input as { id?: unknown }).id, index);
    if (given >= current.nextFeatureId) {
      throw new AppError('feature_not_found', `feature index ${index}: the map has no feature ${given}. Leave "id" out to add a feature: the service gives it its id.`);
    }
    // A new feature is checked without an id, so the message names it by its index.
    let feature = parseFeatureAt(input, index, given, groupIds);
    const imageId = imageToResolve(feature);
    if (imageId !== undefined) {
      const stored = images.get(imageId);
      if (!stored) throw mediaNotLinkable('image', imageId);
      feature = { ...feature, properties: { ...feature.properties, image: { ...(feature.properties.image as object), ...stored } } };
    }
    if (given < 0) {
      feature.id = next++;
      ids[String(index)] = feature.id;
    } else {
      changedIds.push(given);
    }
    upsert.push(rowOf(feature, featureText(feature)));
  });
  const written = new Set(changedIds);
  if (written.size !== changedIds.length) {
    const twice = changedIds.find((id, i) => changedIds.indexOf(id) !== i);
    throw new AppError('invalid_geojson', `feature ${twice} is given twice in "features"; change a feature once per save.`);
  }
  const deleted = [...new Set(request.delete)];
  const both = deleted.find((id) => written.has(id));
  if (both !== undefined) throw new AppError('invalid_geojson', `feature ${both} is both in "features" and in "delete".`);
  return { upsert, delete: deleted, ids, changedIds };
}
