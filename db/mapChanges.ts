// map/changes: what changed in a map since a revision, worked out from what the versions already
// record (migration 024, db/mapVersions.ts) — no table of its own. Every content write keeps, in
// map_version_changes, the rows it changed or deleted as they were before it (null: the id did
// not exist), and each version the map's next feature id after it. So, against the version at
// `since`: a feature with an id at or above that version's next id is new; one below it that a
// later write touched is compared with its row as it was at `since` (the first later write that
// touched it kept that row): gone now → deleted, not there then → added, another
// text → changed (texts are compared as stored: the same feature written with its numbers spelled
// otherwise would be reported changed, which costs a client a needless read, never a missed change).
// Features nobody touched since are not looked at: the answer costs what changed.
import type { Db } from './connection.js';
import { translating } from './errors.js';
import { firstChangesBindings, firstChangesSql, type VersionPoint } from './mapVersions.js';

export type ChangesSince =
  | { kind: 'changes'; revision: number; added: number[]; changed: number[]; deleted: number[] }
  /** `since` is after the map's revision. */
  | { kind: 'ahead'; revision: number }
  /** The versions back to `since` are not all kept (pruned, or written before versions were kept). */
  | { kind: 'not_kept'; revision: number; oldest: number | null };

const ids = (rows: { feature_id: number | string }[]): number[] => rows.map((row) => Number(row.feature_id)).sort((a, b) => a - b);

/** The ids added, changed and deleted since revision `since`; undefined when there is no such map. */
export async function changesSince(db: Db, mapId: number, since: number): Promise<ChangesSince | undefined> {
  return translating(() =>
    db.transaction(
      async (trx) => {
        const map = await trx('maps').select('revision').where({ id: mapId }).first();
        if (!map) return undefined;
        const revision = Number(map.revision);
        if (since > revision) return { kind: 'ahead', revision };
        // Every revision from `since` on must have its version (one per content write).
        const kept = await trx('map_versions')
          .where('map_id', mapId)
          .andWhere('revision', '>=', since)
          .select(trx.raw('count(*) as n'), trx.raw('min(revision) as first'))
          .first();
        const at = await trx('map_versions').select('id', 'revision', 'next_feature_id').where({ map_id: mapId, revision: since }).first();
        if (!at || Number(kept?.n ?? 0) !== revision - since + 1) {
          const oldest = await trx('map_versions').where('map_id', mapId).min({ r: 'revision' }).first();
          return { kind: 'not_kept', revision, oldest: oldest?.r === null || oldest?.r === undefined ? null : Number(oldest.r) };
        }
        if (since === revision) return { kind: 'changes', revision, added: [], changed: [], deleted: [] };
        const version: VersionPoint = { id: Number(at.id), revision: since, nextFeatureId: Number(at.next_feature_id) };
        const bindings = firstChangesBindings(mapId, version, revision);
        // New ids: a range of the primary key; ids below that a later write gave back (a replace, a restore).
        const added = await trx.raw(
          `with first_changes as (${firstChangesSql})
           select feature_id from map_features where map_id = ? and feature_id >= ?
           union all
           select t.feature_id from first_changes t join map_features f on f.map_id = ? and f.feature_id = t.feature_id where t.feature is null`,
          [...bindings, mapId, version.nextFeatureId, mapId],
        );
        const changed = await trx.raw(
          `with first_changes as (${firstChangesSql})
           select t.feature_id from first_changes t join map_features f on f.map_id = ? and f.feature_id = t.feature_id
            where t.feature is not null and f.feature <> t.feature`,
          [...bindings, mapId],
        );
        const deleted = await trx.raw(
          `with first_changes as (${firstChangesSql})
           select t.feature_id from first_changes t
            where t.feature is not null and not exists (select 1 from map_features f where f.map_id = ? and f.feature_id = t.feature_id)`,
          [...bindings, mapId],
        );
        return { kind: 'changes', revision, added: ids(added.rows), changed: ids(changed.rows), deleted: ids(deleted.rows) };
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    ),
  );
}
