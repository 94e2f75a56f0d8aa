// What the editor has changed and not saved, and the history of its edits: every step of the
// history is one or more features before and after (null: not there) and, when it touched them,
// the groups before and after. Undo and redo walk the history, which outlives saves (new items'
// temporary negative ids become their saved ids). A save sends only the changes (`changes()`):
// the features that changed, and the groups (all of them, in order) when they changed; what was
// edited again while it was on its way stays unsaved.
import type { WebSaveBody, WebSaveConflictAnswer } from '../../lib/webSave.js';
import type { MapFeature } from './mapFeature.js';
import type { GroupId, MapGroup } from './groups.js';

export interface Edit {
  id: number;
  before: MapFeature | null;
  after: MapFeature | null;
}

/** One step of the history: undone and redone as a whole. */
export interface Step {
  edits: Edit[];
  groups?: { before: MapGroup[]; after: MapGroup[] };
}


/** The features (and groups) a save sent, to tell afterwards which changes it saved. */
export interface Sent {
  body: WebSaveBody;
  features: Map<number, MapFeature | null>;
  groups: MapGroup[];
}

/** A feature someone else saved meanwhile, as the save's 409 answer lists it. */
export type Conflict = WebSaveConflictAnswer<MapFeature>['conflicts'][number];

/** A copy of the feature with one property set (undefined: removed). */
export function withProperty(feature: MapFeature, name: string, value: unknown): MapFeature {
  const after = JSON.parse(JSON.stringify(feature)) as MapFeature;
  after.properties ??= {};
  if (value === undefined) delete after.properties[name];
  else after.properties[name] = value;
  return after;
}

const plain = (feature: MapFeature) => ({ type: 'Feature', geometry: feature.geometry, properties: feature.properties ?? {} });

export class EditState {
  readonly features: Map<number, MapFeature>;
  revision: number;
  /** The groups as edited, and as last loaded or saved. */
  groups: MapGroup[];
  private savedGroups: MapGroup[];
  private readonly added = new Set<number>();
  private readonly changed = new Set<number>();
  private readonly deleted = new Set<number>();
  private readonly done: Step[] = [];
  private readonly undone: Step[] = [];

  /**
   * `show` puts a feature on the map and in the list (null: takes it off); `showGroups` is told
   * when the groups changed.
   */
  constructor(
    features: readonly MapFeature[],
    revision: number,
    private readonly show: (id: number, feature: MapFeature | null) => void,
    groups: readonly MapGroup[] = [],
    private readonly showGroups: (groups: MapGroup[]) => void = () => undefined,
  ) {
    this.features = new Map(features.map((feature) => [feature.id, feature]));
    this.revision = revision;
    this.groups = [...groups];
    this.savedGroups = this.groups;
  }

  /** How many things are unsaved: each feature, and the groups as one. */
  pending(): number {
    return this.added.size + this.changed.size + this.deleted.size + (this.groupsChanged() ? 1 : 0);
  }

  groupsChanged(): boolean {
    return JSON.stringify(this.groups) !== JSON.stringify(this.savedGroups);
  }

  canUndo = (): boolean => this.done.length > 0;
  canRedo = (): boolean => this.undone.length > 0;

  /** Makes an edit of one feature, one step of the history. */
  apply(edit: Edit): void {
    this.applyStep({ edits: [edit] });
  }

  /** Makes a step (several features, the groups): undone and redone as one. */
  applyStep(step: Step): void {
    // In the history first: what `show` is told about it can already be undone.
    this.done.push(step);
    this.undone.length = 0;
    this.make(step);
  }

  private make(step: Step): void {
    for (const edit of step.edits) this.put(edit.id, edit.after);
    if (step.groups) {
      this.groups = step.groups.after;
      this.showGroups(this.groups);
    }
  }

  undo(): void {
    const step = this.done.pop();
    if (!step) return;
    this.undone.push(step);
    this.make({
      edits: [...step.edits].reverse().map((edit) => ({ id: edit.id, before: edit.after, after: edit.before })),
      ...(step.groups ? { groups: { before: step.groups.after, after: step.groups.before } } : {}),
    });
  }

  redo(): void {
    const step = this.undone.pop();
    if (!step) return;
    this.done.push(step);
    this.make(step);
  }

  private put(id: number, feature: MapFeature | null): void {
    if (feature) this.features.set(id, feature);
    else this.features.delete(id);
    this.record(id, feature !== null);
    this.show(id, feature);
  }

  private record(id: number, present: boolean): void {
    if (id < 0) {
      if (present) this.added.add(id);
      else this.added.delete(id);
    } else if (present) {
      this.changed.add(id);
      this.deleted.delete(id);
    } else {
      this.changed.delete(id);
      this.deleted.add(id);
    }
  }

  /** The body of a save of everything unsaved, made on the revision loaded. */
  changes(): Sent {
    const features = new Map<number, MapFeature | null>();
    for (const id of [...this.added, ...this.changed]) features.set(id, this.features.get(id)!);
    for (const id of this.deleted) features.set(id, null);
    const body: WebSaveBody = {
      revision: this.revision,
      features: {
        added: [...this.added].map((id) => ({ key: String(id), feature: plain(this.features.get(id)!) })),
        changed: [...this.changed].map((id) => ({ ...plain(this.features.get(id)!), id })),
        deleted: [...this.deleted],
      },
    };
    if (this.groupsChanged()) {
      const kept = new Set(this.groups.map((group) => group.id));
      body.groups = this.groups;
      body.deletedGroups = this.savedGroups.filter((group) => !kept.has(group.id)).map((group) => group.id);
    }
    return { body, features, groups: this.groups };
  }

  /**
   * The save went through: what it sent is saved unless edited again since; new items take their
   * ids (on the map, in the list and in the history). Answers the renames, temporary → saved.
   */
  saved(sent: Sent, answer: { revision: number; ids: Record<string, number> }): Map<number, number> {
    this.revision = answer.revision;
    this.savedGroups = sent.groups;
    const renames = new Map<number, number>();
    for (const [id, feature] of sent.features) {
      const current = this.features.get(id) ?? null;
      if (id >= 0) {
        if (current === feature) {
          this.changed.delete(id);
          this.deleted.delete(id);
        }
        continue;
      }
      const savedId = answer.ids[String(id)];
      if (savedId === undefined) continue;
      renames.set(id, savedId);
      this.added.delete(id);
      if (!current) {
        this.deleted.add(savedId); // deleted while it was being saved: the next save deletes it
        continue;
      }
      this.features.delete(id);
      const renamed = { ...current, id: savedId };
      this.features.set(savedId, renamed);
      if (current !== feature) this.changed.add(savedId); // edited while it was being saved
      this.show(id, null);
      this.show(savedId, renamed);
    }
    for (const edit of [...this.done, ...this.undone].flatMap((step) => step.edits)) {
      const id = renames.get(edit.id);
      if (id === undefined) continue;
      edit.id = id;
      if (edit.before) edit.before = { ...edit.before, id };
      if (edit.after) edit.after = { ...edit.after, id };
    }
    return renames;
  }

  /** Someone else's version wins for these items; the rest stays unsaved, to be sent on `revision`. */
  takeTheirs(conflicts: readonly Conflict[], revision: number): void {
    this.revision = revision;
    for (const conflict of conflicts) {
      this.changed.delete(conflict.id);
      this.deleted.delete(conflict.id);
      if (conflict.theirs) this.features.set(conflict.id, conflict.theirs);
      else this.features.delete(conflict.id);
      this.show(conflict.id, conflict.theirs);
    }
  }

  /**
   * Others added items to groups this editor deleted: the groups stay (as they were saved), so
   * their items keep a home; the rest stays unsaved.
   */
  keepGroups(ids: readonly GroupId[], revision: number): void {
    this.revision = revision;
    const back = this.savedGroups.filter((group) => ids.includes(group.id) && !this.groups.some((kept) => kept.id === group.id));
    if (back.length === 0) return;
    const all = [...this.groups, ...back];
    // A group whose parent is gone too comes back at the top.
    this.groups = all.map((group) => (group.parent === undefined || all.some((other) => other.id === group.parent) ? group : { ...group, parent: undefined }));
    this.showGroups(this.groups);
  }

  /** The editor's version wins: sent again on `revision`; an item they deleted comes back as a new one. */
  keepMine(conflicts: readonly Conflict[], revision: number, newId: () => number): void {
    this.revision = revision;
    for (const conflict of conflicts) {
      if (conflict.theirs !== null || conflict.mine !== 'changed') continue;
      const feature = this.features.get(conflict.id);
      this.changed.delete(conflict.id);
      this.features.delete(conflict.id);
      this.show(conflict.id, null);
      if (feature) {
        const id = newId();
        this.put(id, { ...feature, id });
      }
    }
  }
}
