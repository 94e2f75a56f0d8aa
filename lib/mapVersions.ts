// A map's kept versions as the editor's History shows them: the domain types db/mapVersions.ts
// returns, and the JSON the History's endpoints answer (api/web/editorEndpoints/version*.ts), which the
// browser reads (web/app/historyPanel.ts).

export type VersionKind = 'create' | 'save' | 'restore' | 'replace' | 'append';

export interface VersionSummary {
  id: number;
  revision: number;
  kind: VersionKind;
  /** Who made it (null: the account is gone). */
  savedBy: string | null;
  createdAt: Date;
  added: number;
  changed: number;
  deleted: number;
  /** Items in the map after it. */
  featureCount: number;
  /** A restore: the revision it brought back. */
  restoredRevision: number | null;
}

export type RestoreOutcome =
  | { restored: true; revision: number; added: number; changed: number; deleted: number; ids: { added: number[]; changed: number[]; deleted: number[] } }
  | { restored: false; reason: 'current' };

/** One version in GET /maps/{id}/versions. */
export interface VersionListed {
  id: number;
  revision: number;
  kind: VersionKind;
  saved_by: string | null;
  /** ISO 8601. */
  created_at: string;
  added: number;
  changed: number;
  deleted: number;
  feature_count: number;
  restored_revision?: number;
}

/** GET /maps/{id}/versions: a page of versions, newest first; `more` when older ones are kept. */
export interface VersionListAnswer {
  more: boolean;
  versions: VersionListed[];
}

/** POST /maps/{id}/versions/{version}/restore; `image`: whether a new static image was asked for. */
export interface RestoreAnswer {
  restored: true;
  revision: number;
  added: number;
  changed: number;
  deleted: number;
  image: 'refreshing' | 'not_refreshed';
}
