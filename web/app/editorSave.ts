// Save (POST /maps/{id}/save): sends only what changed since the revision the page loaded, and
// settles conflicts with what others saved meanwhile — the person chooses whose version stays;
// groups this person deleted that others put items in meanwhile stay, for those items. What it
// says goes in the toolbar's status line; `saving` in the editor's state while it runs.
import { batch } from '@preact/signals-core';
import { element } from './element.js';
import type { WebSaveAnswer, WebSaveConflictAnswer } from '../../lib/webSave.js';
import type { EditState } from './editState.js';
import type { EditorState } from './editorState.js';
import { groupOf } from './groups.js';
import type { MapFeature } from './mapFeature.js';

type ConflictAnswer = WebSaveConflictAnswer<MapFeature>;

const named = (feature: MapFeature | null | undefined) => (typeof feature?.properties?.title === 'string' && feature.properties.title) || 'an untitled item';

export interface SavingOptions {
  ui: EditorState;
  edits: EditState;
  saveUrl: string;
  csrf: string;
  status: HTMLElement;
  /** New items got their saved ids (temporary → saved). */
  renamed(renames: Map<number, number>): void;
  /** A temporary id for an item kept as mine that they deleted. */
  newId(): number;
}

/** The editor's save: call it for Save, Save again, Keep mine. */
export function saving(options: SavingOptions): () => Promise<void> {
  const { ui, edits: state, status } = options;

  async function save(): Promise<void> {
    if (ui.saving.value || state.pending() === 0) return;
    status.textContent = 'Saving…'; // first: the keyboard goes to it when Save is disabled
    ui.saving.value = true;
    const sent = state.changes();
    try {
      const response = await fetch(options.saveUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-csrf-token': options.csrf },
        body: JSON.stringify(sent.body),
      });
      const answer: unknown = await response.json();
      if (response.status === 409) return settle(answer as ConflictAnswer);
      if (!response.ok) {
        status.textContent = (answer as { error?: string }).error ?? 'The map could not be saved.';
        return;
      }
      options.renamed(state.saved(sent, answer as WebSaveAnswer));
      status.textContent = 'Saved.';
    } catch {
      status.textContent = 'The map could not be saved: the service did not answer. Your changes are kept here; try again.';
    } finally {
      batch(() => {
        ui.saving.value = false;
        ui.edits.value++;
      });
    }
  }

  function settle(answer: ConflictAnswer): void {
    const items = answer.conflicts.map((conflict) =>
      conflict.theirs === null ? `“${named(state.features.get(conflict.id))}” (they deleted it)` : `“${named(state.features.get(conflict.id))}” (theirs: “${named(conflict.theirs)}”)`,
    );
    if (answer.group_conflicts.length > 0) state.keepGroups(answer.group_conflicts.map((conflict) => conflict.group), answer.revision);
    const groupsKept = answer.group_conflicts.map((conflict) => {
      const title = groupOf(state.groups, conflict.group)?.title ?? String(conflict.group);
      return `“${title}” (${conflict.items} ${conflict.items === 1 ? 'item' : 'items'} put in it meanwhile)`;
    });
    const kept = groupsKept.length > 0 ? ` Groups you deleted are kept for what others put in them: ${groupsKept.join(', ')}.` : '';
    status.replaceChildren(element('span', {}, `${answer.error}${items.length > 0 ? ` In conflict: ${items.join(', ')}.` : ''}${kept}`));
    if (answer.conflicts.length === 0) {
      const again = element('button', { type: 'button' }, 'Save again');
      again.addEventListener('click', () => void save());
      status.append(' ', again);
      return;
    }
    const keepMine = element('button', { type: 'button' }, 'Keep mine');
    const keepTheirs = element('button', { type: 'button', class: 'secondary' }, 'Keep theirs');
    keepMine.addEventListener('click', () => {
      state.keepMine(answer.conflicts, answer.revision, options.newId);
      void save();
    });
    keepTheirs.addEventListener('click', () => {
      state.takeTheirs(answer.conflicts, answer.revision);
      if (state.pending() > 0) void save();
      else status.textContent = 'Their version is kept.';
    });
    status.append(' ', keepMine, ' ', keepTheirs);
  }

  return save;
}
