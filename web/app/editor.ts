// The map editor for the map's owner and editors: a toolbar (Edit map, then Select, Point, Line,
// Area, Undo, Redo, Save), the item panel of the selected item (title, description, colour, delete), undo and
// redo of every edit of the session, and Save, which sends only what changed since the revision
// the page loaded (POST /maps/{id}/save) and settles conflicts with what others saved meanwhile.
// The map itself is the adapter's: this module keeps the edits.
import { isEditable, type Drawing, type DrawTool, type MapFeature, type MapView } from './mapAdapter.js';

export interface EditorOptions {
  view: MapView;
  features: MapFeature[];
  /** The revision the features are of (X-Map-Revision). */
  revision: number;
  saveUrl: string;
  csrf: string;
  /** Where the toolbar goes (over the map) and where the item panel goes (the side panel). */
  toolbarHost: HTMLElement;
  panelHost: HTMLElement;
}

export interface Editor {
  select(id: number | undefined): void;
  /** Whether the editing tools are on (else the map is shown as visitors see it, popups and all). */
  active(): boolean;
}

interface Edit {
  id: number;
  before: MapFeature | null;
  after: MapFeature | null;
}

type ConflictAnswer = { conflicts: { id: number; mine: 'changed' | 'deleted'; theirs: MapFeature | null }[]; group_conflicts: unknown[]; revision: number; error: string };

const TOOLS: { tool: DrawTool; label: string; text: string }[] = [
  { tool: 'select', label: 'Select and edit items', text: 'Select' },
  { tool: 'point', label: 'Draw a point', text: 'Point' },
  { tool: 'linestring', label: 'Draw a line: click for each point, click the last one again to finish', text: 'Line' },
  { tool: 'polygon', label: 'Draw an area: click for each corner, click the first one to close it', text: 'Area' },
];

const SWATCHES = ['#2f6fd6', '#1b9e77', '#66a61e', '#e6ab02', '#d95f02', '#e7298a', '#7570b3', '#b03a2e', '#1d232a', '#8a8f94'];

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const copy = (feature: MapFeature): MapFeature => JSON.parse(JSON.stringify(feature)) as MapFeature;

export function startEditor(options: EditorOptions): Editor {
  const { view } = options;
  const features = new Map(options.features.map((feature) => [feature.id, feature]));
  let revision = options.revision;
  const added = new Set<number>();
  const changed = new Set<number>();
  const deleted = new Set<number>();
  const undone: Edit[] = [];
  const done: Edit[] = [];
  let selected: number | undefined;
  let tool: DrawTool = 'select';
  let saving = false;

  // ---- the toolbar: Edit map turns the tools on and off
  const toolbar = element('div', { class: 'editor-toolbar', role: 'toolbar', 'aria-label': 'Map editing' });
  let editing = false;
  const editButton = element('button', { type: 'button', 'aria-pressed': 'false', class: 'edit' }, 'Edit map');
  editButton.addEventListener('click', () => setEditing(!editing));
  toolbar.append(editButton);
  const toolButtons = new Map<DrawTool, HTMLButtonElement>();
  for (const { tool, label, text } of TOOLS) {
    const button = element('button', { type: 'button', 'aria-label': label, 'aria-pressed': String(tool === 'select'), 'data-tool': tool }, text);
    button.addEventListener('click', () => setTool(tool));
    toolButtons.set(tool, button);
    toolbar.append(button);
  }
  const undoButton = element('button', { type: 'button', 'aria-label': 'Undo (Ctrl+Z)' }, 'Undo');
  const redoButton = element('button', { type: 'button', 'aria-label': 'Redo (Shift+Ctrl+Z)' }, 'Redo');
  const saveButton = element('button', { type: 'button', class: 'save' }, 'Save');
  const status = element('p', { class: 'editor-status', role: 'status' });
  undoButton.addEventListener('click', () => undo());
  redoButton.addEventListener('click', () => redo());
  saveButton.addEventListener('click', () => void save());
  toolbar.append(undoButton, redoButton, saveButton);
  options.toolbarHost.append(toolbar, status);

  const drawing: Drawing = view.startDrawing((id, geometry) => {
    const feature: MapFeature = { type: 'Feature', id, geometry, properties: {} };
    apply({ id, before: null, after: feature });
    setTool('select');
    select(id);
    panelTitle()?.focus();
  });

  // ---- the item panel
  const panel = element('section', { class: 'item-panel', 'aria-label': 'Selected item' });
  panel.hidden = true;
  options.panelHost.prepend(panel);
  const panelTitle = () => panel.querySelector<HTMLInputElement>('#item-title');

  function showPanel(feature: MapFeature): void {
    const properties = feature.properties ?? {};
    panel.replaceChildren();
    panel.hidden = false;
    panel.append(element('h2', {}, feature.id < 0 ? 'New item' : 'Item'));
    const field = (id: string, label: string, input: HTMLInputElement | HTMLTextAreaElement) => {
      const wrapper = element('p', { class: 'field' });
      wrapper.append(element('label', { for: id }, label), input);
      panel.append(wrapper);
      return input;
    };
    const title = field('item-title', 'Title', element('input', { id: 'item-title', type: 'text' }));
    title.value = typeof properties.title === 'string' ? properties.title : '';
    const description = field('item-description', 'Description (Markdown)', element('textarea', { id: 'item-description', rows: '4' }));
    description.value = typeof properties.description === 'string' ? properties.description : '';
    const colour = field('item-colour', 'Colour', element('input', { id: 'item-colour', type: 'color' }));
    colour.value = typeof properties.color === 'string' && /^#[0-9a-f]{6}$/i.test(properties.color) ? properties.color : '#2f6fd6';
    const swatches = element('div', { class: 'swatches', role: 'group', 'aria-label': 'Colours' });
    for (const swatch of SWATCHES) {
      const button = element('button', { type: 'button', class: 'swatch', 'aria-label': `Colour ${swatch}`, 'aria-pressed': String(colour.value === swatch) });
      button.style.background = swatch; // through the CSSOM: the pages' CSP refuses style attributes
      button.addEventListener('click', () => setProperty('color', swatch));
      swatches.append(button);
    }
    panel.append(swatches);
    title.addEventListener('change', () => setProperty('title', title.value.trim() || undefined));
    description.addEventListener('change', () => setProperty('description', description.value.trim() || undefined));
    colour.addEventListener('change', () => setProperty('color', colour.value));
    const actions = element('p', { class: 'actions' });
    const remove = element('button', { type: 'button', class: 'danger' }, 'Delete item');
    const doneButton = element('button', { type: 'button', class: 'secondary' }, 'Done');
    remove.addEventListener('click', () => deleteSelected());
    doneButton.addEventListener('click', () => select(undefined));
    actions.append(remove, doneButton);
    panel.append(actions);
  }

  // ---- the item list beside the map follows the edits
  const list = document.querySelector<HTMLElement>('.item-list');
  const KINDS: Record<string, [string, string]> = { Point: ['point', 'Point'], LineString: ['line', 'Line'], Polygon: ['area', 'Area'] };

  function listEntry(id: number, feature: MapFeature | null): void {
    const existing = list?.querySelector<HTMLElement>(`[data-item-id="${id}"]`);
    if (!feature) return existing?.remove();
    const [kind, kindLabel] = KINDS[feature.geometry?.type ?? ''] ?? ['item', 'Item'];
    const title = (typeof feature.properties?.title === 'string' && feature.properties.title.trim()) || `Untitled ${kind}`;
    const entry = existing ?? element('li', { class: 'item', 'data-item-id': String(id) });
    entry.dataset.title = title;
    const titleButton = element('button', { type: 'button', class: 'link item-title', 'data-open-item': '' }, title);
    const eye = entry.querySelector('.eye');
    entry.replaceChildren(...(eye ? [eye] : []), element('span', { class: `kind kind-${kind}`, role: 'img', 'aria-label': kindLabel }), titleButton);
    if (!existing) list?.append(entry);
  }

  // ---- edits
  function record(id: number, after: MapFeature | null): void {
    if (id < 0) {
      if (after) added.add(id);
      else added.delete(id);
      return;
    }
    if (after) {
      changed.add(id);
      deleted.delete(id);
    } else {
      changed.delete(id);
      deleted.add(id);
    }
  }

  function put(id: number, feature: MapFeature | null): void {
    if (feature) {
      features.set(id, feature);
      if (drawing.editing() !== id) view.putFeatures([feature]);
    } else {
      features.delete(id);
      view.removeFeatures([id]);
    }
    record(id, feature);
    listEntry(id, feature);
  }

  function apply(edit: Edit, fromHistory = false): void {
    put(edit.id, edit.after);
    if (!fromHistory) {
      done.push(edit);
      undone.length = 0;
    }
    refreshButtons();
  }

  function setProperty(name: string, value: string | undefined): void {
    if (selected === undefined) return;
    const before = features.get(selected);
    if (!before || before.properties?.[name] === value) return;
    const after = copy(before);
    after.properties ??= {};
    if (value === undefined) delete after.properties[name];
    else after.properties[name] = value;
    apply({ id: selected, before, after });
    if (name === 'color') showPanel(after);
  }

  /** Ends the shape edit of the selected item, keeping a changed geometry as one edit. */
  function finishShapeEdit(): void {
    const finished = drawing.finishEdit();
    if (!finished) return;
    const before = features.get(finished.id);
    if (!before) return;
    if (JSON.stringify(before.geometry) === JSON.stringify(finished.geometry)) {
      view.putFeatures([before]);
      return;
    }
    apply({ id: finished.id, before, after: { ...copy(before), geometry: finished.geometry } });
  }

  function select(id: number | undefined): void {
    if (selected === id) return;
    finishShapeEdit();
    selected = id;
    const feature = id === undefined ? undefined : features.get(id);
    if (!feature) {
      selected = undefined;
      panel.hidden = true;
      return;
    }
    showPanel(feature);
    if (isEditable(feature.geometry)) {
      view.removeFeatures([feature.id]);
      drawing.edit(feature.id, feature.geometry);
    }
  }

  function deleteSelected(): void {
    if (selected === undefined) return;
    const id = selected;
    drawing.cancelEdit();
    const before = features.get(id) ?? null;
    selected = undefined;
    panel.hidden = true;
    if (before) apply({ id, before, after: null });
  }

  function undo(): void {
    select(undefined);
    const edit = done.pop();
    if (!edit) return;
    undone.push(edit);
    apply({ id: edit.id, before: edit.after, after: edit.before }, true);
  }

  function redo(): void {
    select(undefined);
    const edit = undone.pop();
    if (!edit) return;
    done.push(edit);
    apply(edit, true);
  }

  function setTool(next: DrawTool): void {
    if (next !== 'select') select(undefined);
    tool = next;
    drawing.setTool(next);
    for (const [name, button] of toolButtons) button.setAttribute('aria-pressed', String(name === next));
  }

  const pending = () => added.size + changed.size + deleted.size;

  function setEditing(on: boolean): void {
    if (!on) {
      select(undefined);
      setTool('select');
    }
    editing = on;
    editButton.setAttribute('aria-pressed', String(on));
    editButton.textContent = on ? 'Stop editing' : 'Edit map';
    refreshButtons();
  }

  function refreshButtons(): void {
    undoButton.disabled = done.length === 0;
    redoButton.disabled = undone.length === 0;
    const count = pending();
    saveButton.disabled = count === 0 || saving;
    saveButton.textContent = count === 0 ? 'Saved' : `Save (${count})`;
    // The tools while editing; Save whenever something is unsaved.
    for (const button of [...toolButtons.values(), undoButton, redoButton]) button.hidden = !editing;
    saveButton.hidden = !editing && count === 0;
  }

  // ---- saving
  const plain = (feature: MapFeature) => ({ type: 'Feature', geometry: feature.geometry, properties: feature.properties ?? {} });

  async function save(): Promise<void> {
    if (saving || pending() === 0) return;
    finishShapeEdit();
    saving = true;
    refreshButtons();
    status.textContent = 'Saving…';
    const sentAdded = [...added];
    const body = {
      revision,
      features: {
        added: sentAdded.map((id) => ({ key: String(id), feature: plain(features.get(id)!) })),
        changed: [...changed].map((id) => ({ ...plain(features.get(id)!), id })),
        deleted: [...deleted],
      },
    };
    try {
      const response = await fetch(options.saveUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-csrf-token': options.csrf },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { revision: number; ids: Record<string, number>; error?: string } & Partial<ConflictAnswer>;
      if (response.status === 409) return settle(answer as ConflictAnswer);
      if (!response.ok) {
        status.textContent = answer.error ?? 'The map could not be saved.';
        return;
      }
      revision = answer.revision;
      for (const id of body.features.changed.map((f) => f.id)) changed.delete(id);
      for (const id of body.features.deleted) deleted.delete(id);
      const renamed: MapFeature[] = [];
      for (const temporary of sentAdded) {
        const feature = features.get(temporary);
        const id = answer.ids[String(temporary)];
        added.delete(temporary);
        if (!feature || id === undefined) continue;
        features.delete(temporary);
        const saved = { ...feature, id };
        features.set(id, saved);
        renamed.push(saved);
        list?.querySelector<HTMLElement>(`[data-item-id="${temporary}"]`)?.setAttribute('data-item-id', String(id));
        if (selected === temporary) selected = id;
      }
      if (renamed.length > 0) {
        view.removeFeatures(sentAdded);
        view.putFeatures(renamed.filter((feature) => feature.id !== drawing.editing()));
      }
      // The history goes on across saves: its temporary ids become the saved ones.
      const idOf = new Map(sentAdded.map((temporary) => [temporary, answer.ids[String(temporary)]]));
      for (const edit of [...done, ...undone]) {
        const id = idOf.get(edit.id);
        if (id === undefined) continue;
        edit.id = id;
        if (edit.before) edit.before = { ...edit.before, id };
        if (edit.after) edit.after = { ...edit.after, id };
      }
      status.textContent = 'Saved.';
    } catch {
      status.textContent = 'The map could not be saved: the service did not answer. Your changes are kept here; try again.';
    } finally {
      saving = false;
      refreshButtons();
    }
  }

  /** Someone else saved the same items meanwhile: the person chooses whose version stays. */
  function settle(answer: ConflictAnswer): void {
    saving = false;
    const named = (feature: MapFeature | null | undefined) => (typeof feature?.properties?.title === 'string' && feature.properties.title) || 'an untitled item';
    const items = answer.conflicts.map((conflict) =>
      conflict.theirs === null ? `“${named(features.get(conflict.id))}” (they deleted it)` : `“${named(features.get(conflict.id))}” (theirs: “${named(conflict.theirs)}”)`,
    );
    status.replaceChildren(element('span', {}, `${answer.error}${items.length > 0 ? ` In conflict: ${items.join(', ')}.` : ''}`));
    const keepMine = element('button', { type: 'button' }, 'Keep mine');
    const keepTheirs = element('button', { type: 'button', class: 'secondary' }, 'Keep theirs');
    keepMine.addEventListener('click', () => {
      revision = answer.revision;
      for (const conflict of answer.conflicts) {
        // Mine changed what they deleted: it comes back as a new item.
        if (conflict.theirs === null && conflict.mine === 'changed') {
          const feature = features.get(conflict.id);
          changed.delete(conflict.id);
          if (feature) {
            const id = -1_000_000 - conflict.id;
            features.delete(conflict.id);
            view.removeFeatures([conflict.id]);
            put(id, { ...feature, id });
          }
        }
      }
      void save();
    });
    keepTheirs.addEventListener('click', () => {
      revision = answer.revision;
      for (const conflict of answer.conflicts) {
        changed.delete(conflict.id);
        deleted.delete(conflict.id);
        if (conflict.theirs) {
          features.set(conflict.id, conflict.theirs);
          view.putFeatures([conflict.theirs]);
        } else {
          features.delete(conflict.id);
          view.removeFeatures([conflict.id]);
        }
      }
      if (pending() > 0) void save();
      else {
        status.textContent = 'Their version is kept.';
        refreshButtons();
      }
    });
    status.append(' ', keepMine, ' ', keepTheirs);
    refreshButtons();
  }

  // ---- keyboard, leaving
  document.addEventListener('keydown', (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
    if (!editing) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z' && !typing) {
      event.preventDefault();
      if (event.shiftKey) redo();
      else undo();
    } else if ((event.key === 'Delete' || event.key === 'Backspace') && !typing && selected !== undefined) {
      event.preventDefault();
      deleteSelected();
    } else if (event.key === 'Escape' && selected !== undefined) {
      select(undefined);
    }
  });
  window.addEventListener('beforeunload', (event) => {
    if (pending() > 0) event.preventDefault();
  });

  // A new map (or a link with ?edit=1) opens with the tools on.
  setEditing(new URLSearchParams(location.search).get('edit') === '1');
  // A click on an item selects it with the Select tool; while drawing, the click is the drawing's.
  return { select: (id) => (editing && tool === 'select' ? select(id) : undefined), active: () => editing };
}

