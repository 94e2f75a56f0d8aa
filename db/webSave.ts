// A web editor's save, in one transaction on the locked map row: the features it changed or
// deleted are compared with what others saved since the editor's revision (a feature row's
// `revision`, or the map's `replaced_revision` after a whole-content write: migration 023); when
// none of them was touched meanwhile, the changes are written on the map's current revision by
// saveFeatures (others' work merges), else the conflicts are answered and nothing is written.
import type { FeatureConflict, GroupConflict, SavePlan, WebSaveOutcome } from '../lib/webSave.js';
import type { GroupId } from '../lib/geojson/model.js';
import type { Db } from './connection.js';
import { translating } from './errors.js';
import { saveFeatures } from './mapFeatures.js';

export interface WebSaveInput {
  mapId: number;
  /** Who saves. */
  userId: number;
  baseRevision: number;
  deletedGroups: readonly GroupId[];
  /** Makes the plan from the map as it is now (its head, the next free feature id); may throw AppError. */
  plan(current: { head: string; nextFeatureId: number }): SavePlan;
  /** Called with the map's size after the save, before it commits; may throw to refuse it. */
  check(after: { contentBytes: number; featureCount: number }): void;
}

const BATCH = 1000;

export async function saveWebChanges(db: Db, input: WebSaveInput): Promise<WebSaveOutcome | undefined> {
  return translating(() => db.transaction(async (trx) => {
    const map = await trx('maps').select('revision', 'replaced_revision', 'next_feature_id', 'head').where({ id: input.mapId }).forUpdate().first();
    if (!map) return undefined;
    const revision = Number(map.revision);
    const head = typeof map.head === 'string' ? map.head : JSON.stringify(map.head ?? {});
    const plan = input.plan({ head, nextFeatureId: Number(map.next_feature_id) });
    // Rows the editor read at its revision: changed since then (or gone) means someone else touched them.
    const touched = [...plan.changedIds, ...plan.delete];
    const rows = new Map<number, { revision: number; feature: string }>();
    for (let i = 0; i < touched.length; i += BATCH) {
      const found = await trx('map_features').select('feature_id', 'revision', 'feature').where('map_id', input.mapId).whereIn('feature_id', touched.slice(i, i + BATCH));
      for (const row of found) rows.set(Number(row.feature_id), { revision: Math.max(Number(row.revision), Number(map.replaced_revision)), feature: row.feature });
    }
    const conflicts: FeatureConflict[] = [];
    for (const id of plan.changedIds) {
      const row = rows.get(id);
      if (!row) conflicts.push({ id, theirs: null, mine: 'changed' });
      else if (row.revision > input.baseRevision) conflicts.push({ id, theirs: row.feature, mine: 'changed' });
    }
    for (const id of plan.delete) {
      const row = rows.get(id);
      if (row && row.revision > input.baseRevision) conflicts.push({ id, theirs: row.feature, mine: 'deleted' });
    }
    // A deleted group that still holds items the editor did not move or delete (others added them).
    const groupConflicts: GroupConflict[] = [];
    for (const group of input.deletedGroups) {
      const left = await trx('map_features')
        .where({ map_id: input.mapId, group_id: JSON.stringify(group) })
        .whereNotIn('feature_id', touched.length > 0 ? touched : [-1])
        .count({ n: '*' })
        .first();
      if (Number(left?.n ?? 0) > 0) groupConflicts.push({ group, items: Number(left!.n) });
    }
    if (conflicts.length > 0 || groupConflicts.length > 0) return { saved: false, revision, conflicts, groupConflicts };
    const outcome = await saveFeatures(trx, {
      mapId: input.mapId,
      revision,
      upsert: plan.upsert,
      delete: plan.delete,
      ...(plan.head !== undefined ? { head: plan.head } : {}),
      check: input.check,
      userId: input.userId,
    });
    if (!outcome?.saved) throw new Error('the locked map changed during its save');
    const added = Object.keys(plan.ids).length;
    return {
      saved: true,
      revision: outcome.revision,
      ids: plan.ids,
      merged: revision !== input.baseRevision,
      counts: { added, changed: plan.changedIds.length, deleted: plan.delete.filter((id) => rows.has(id)).length },
    };
  }));
}
