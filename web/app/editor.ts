// The map editor for the map's owner and editors: a toolbar (Edit map, then Select, Point, Line,
// Area, Undo, Redo, Save, and Import: ./importDialog.ts), the item panel of the selected item
// (./itemPanel.ts), undo and redo of every edit of the session and the unsaved changes
// (./editState.ts), and Save, which sends only what changed since the revision the page loaded
// (POST /maps/{id}/save) and settles conflicts with what others saved meanwhile. The map itself
// is the adapter's: this module keeps the edits. A shape's finished drag (or vertex added,
// deleted, line extended) is an edit at once; the measure of what is drawn shows live
// (./drawingReadout.ts).
import { DrawingReadout } from './drawingReadout.js';
import { EditState, type Conflict } from './editState.js';
import { HistoryPanel } from './historyPanel.js';
import { importButton } from './importDialog.js';
import { element, ItemPanel } from './itemPanel.js';
import { isEditable, type Drawing, type DrawTool, type MapFeature, type MapView } from './mapAdapter.js';

export interface EditorOptions {
  view: MapView;
  features: MapFeature[];
  /** The revision the features are of (X-Map-Revision). */
  revision: number;
  saveUrl: string;
  /** Where the Import button sends files (./importDialog.ts). */
  importUrl?: string;
  /** The map's versions (./historyPanel.ts). */
  versionsUrl?: string;
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

type ConflictAnswer = { conflicts: Conflict[]; group_conflicts: unknown[]; revision: number; error: string };

const TOOLS: { tool: DrawTool; label: string; text: string }[] = [
  { tool: 'select', label: 'Select and edit items', text: 'Select' },
  { tool: 'point', label: 'Draw a point', text: 'Point' },
  { tool: 'linestring', label: 'Draw a line: click for each point, click the last one again to finish', text: 'Line' },
  { tool: 'polygon', label: 'Draw an area: click for each corner, click the first one to close it', text: 'Area' },
];

const KINDS: Record<string, [string, string]> = { Point: ['point', 'Point'], LineString: ['line', 'Line'], Polygon: ['area', 'Area'] };
const copy = (feature: MapFeature): MapFeature => JSON.parse(JSON.stringify(feature)) as MapFeature;
const named = (feature: MapFeature | null | undefined) => (typeof feature?.properties?.title === 'string' && feature.properties.title) || 'an untitled item';

export function startEditor(options: EditorOptions): Editor {
  const { view } = options;
  let selected: number | undefined;
  let tool: DrawTool = 'select';
  let editing = false;
  let saving = false;
  let previewing = false;
  let nextNewId = -1_000_000;

  // ---- the item list beside the map follows the edits
  const list = document.querySelector<HTMLElement>('.item-list');
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

  const state = new EditState(options.features, options.revision, (id, feature) => {
    if (!feature) {
      if (drawing.editing() === id) drawing.cancelEdit();
      view.removeFeatures([id]);
    } else if (drawing.editing() !== id) view.putFeatures([feature]);
    else if (isEditable(feature.geometry)) drawing.setGeometry(id, feature.geometry); // an undo or a redo: the handles follow
    listEntry(id, feature);
    refreshButtons();
  });

  // ---- the toolbar: Edit map turns the tools on and off
  const toolbar = element('div', { class: 'editor-toolbar', role: 'toolbar', 'aria-label': 'Map editing' });
  const editButton = element('button', { type: 'button', 'aria-pressed': 'false', class: 'edit' }, 'Edit map');
  editButton.addEventListener('click', () => setEditing(!editing));
  toolbar.append(editButton);
  const toolButtons = new Map<DrawTool, HTMLButtonElement>();
  for (const { tool: name, label, text } of TOOLS) {
    const button = element('button', { type: 'button', 'aria-label': label, 'aria-pressed': String(name === 'select'), 'data-tool': name }, text);
    button.addEventListener('click', () => setTool(name));
    toolButtons.set(name, button);
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
  const importer = options.importUrl ? importButton({ importUrl: options.importUrl, csrf: options.csrf, unsaved: () => state.pending() }) : undefined;
  if (importer) toolbar.append(importer);
  const historyButton = element('button', { type: 'button', 'aria-pressed': 'false', 'aria-label': 'History: earlier versions of the map' }, 'History');
  toolbar.append(historyButton);
  options.toolbarHost.append(toolbar, status);

  const panel = new ItemPanel({ setProperty, remove: deleteSelected, done: () => select(undefined), extend: () => drawing.extend() });
  options.panelHost.prepend(panel.root);
  // While a version is previewed the map shows it, not the map's items: nothing is edited meanwhile.
  const history = options.versionsUrl
    ? new HistoryPanel({
        versionsUrl: options.versionsUrl,
        csrf: options.csrf,
        view: options.view,
        unsaved: () => state.pending(),
        previewing: (on) => {
          if (on) {
            select(undefined);
            setTool('select');
          }
          previewing = on;
          refreshButtons();
        },
      })
    : undefined;
  if (history) options.panelHost.prepend(history.root);
  historyButton.hidden = !history;
  historyButton.addEventListener('click', () => {
    if (!history) return;
    if (history.isOpen()) history.close();
    else void history.open();
    historyButton.setAttribute('aria-pressed', String(history.isOpen()));
  });

  const drawing: Drawing = view.startDrawing((id, geometry) => {
    state.apply({ id, before: null, after: { type: 'Feature', id, geometry, properties: {} } });
    setTool('select');
    select(id);
    panel.focusTitle();
  });
  // A finished drag (a vertex added or deleted, a line extended) is an edit at once: Save counts it.
  drawing.onEdited((id, geometry) => {
    const before = state.features.get(id);
    if (before && JSON.stringify(before.geometry) !== JSON.stringify(geometry)) state.apply({ id, before, after: { ...copy(before), geometry } });
  });
  // Measures live: what is drawn in the readout over the map, what is edited in the item panel.
  const readout = new DrawingReadout();
  options.toolbarHost.append(readout.root);
  drawing.onShape((shape) => {
    readout.show(shape);
    if (shape && shape.id === selected) panel.showMeasure(shape.geometry);
  });

  // ---- edits
  function setProperty(name: string, value: string | boolean | undefined): void {
    if (selected === undefined) return;
    const before = state.features.get(selected);
    if (!before || before.properties?.[name] === value) return;
    const after = copy(before);
    after.properties ??= {};
    if (value === undefined) delete after.properties[name];
    else after.properties[name] = value;
    state.apply({ id: selected, before, after });
    if (name === 'color' || name === 'marker-symbol') panel.show(after);
  }

  /** Ends the shape edit of the selected item, keeping a changed geometry as one edit. */
  function finishShapeEdit(): void {
    const finished = drawing.finishEdit();
    if (!finished) return;
    const before = state.features.get(finished.id);
    if (!before) return;
    if (JSON.stringify(before.geometry) === JSON.stringify(finished.geometry)) view.putFeatures([before]);
    else state.apply({ id: finished.id, before, after: { ...copy(before), geometry: finished.geometry } });
  }

  function select(id: number | undefined): void {
    if (selected === id) return;
    finishShapeEdit();
    const feature = id === undefined ? undefined : state.features.get(id);
    selected = feature ? id : undefined;
    if (!feature) return panel.hide();
    panel.show(feature);
    if (isEditable(feature.geometry)) {
      view.removeFeatures([feature.id]);
      drawing.edit(feature.id, feature.geometry);
      // A shape the drawing refuses (an area with holes) stays on the map as it is.
      if (drawing.editing() !== feature.id) view.putFeatures([feature]);
    }
  }

  function deleteSelected(): void {
    if (selected === undefined) return;
    const id = selected;
    drawing.cancelEdit();
    const before = state.features.get(id) ?? null;
    selected = undefined;
    panel.hide();
    if (before) state.apply({ id, before, after: null });
  }

  function undo(): void {
    state.undo();
    showSelected();
  }

  function redo(): void {
    state.redo();
    showSelected();
  }

  /** After an undo or a redo: the selected item as it is now (gone: nothing selected). */
  function showSelected(): void {
    const feature = selected === undefined ? undefined : state.features.get(selected);
    if (feature) panel.show(feature);
    else {
      selected = undefined;
      panel.hide();
    }
    refreshButtons();
  }

  function setTool(next: DrawTool): void {
    if (next !== 'select') select(undefined);
    tool = next;
    drawing.setTool(next);
    for (const [name, button] of toolButtons) button.setAttribute('aria-pressed', String(name === next));
  }

  function setEditing(on: boolean): void {
    if (!on) {
      select(undefined);
      setTool('select');
      history?.close();
      historyButton.setAttribute('aria-pressed', 'false');
    }
    editing = on;
    editButton.setAttribute('aria-pressed', String(on));
    editButton.textContent = on ? 'Stop editing' : 'Edit map';
    refreshButtons();
  }

  function refreshButtons(): void {
    undoButton.disabled = !state.canUndo();
    redoButton.disabled = !state.canRedo();
    const count = state.pending();
    saveButton.disabled = count === 0 || saving;
    saveButton.textContent = count === 0 ? 'Saved' : `Save (${count})`;
    // The tools while editing; Save whenever something is unsaved.
    for (const button of [...toolButtons.values(), undoButton, redoButton, ...(importer ? [importer] : [])]) button.hidden = !editing;
    saveButton.hidden = !editing && count === 0;
    historyButton.hidden = !editing || !history;
    // A preview shows another version: drawing, undo and redo wait for the map's own items.
    for (const button of toolButtons.values()) button.disabled = previewing;
    if (previewing) undoButton.disabled = redoButton.disabled = true;
  }

  // ---- saving
  async function save(): Promise<void> {
    if (saving || state.pending() === 0) return;
    saving = true;
    refreshButtons();
    status.textContent = 'Saving…';
    const sent = state.changes();
    try {
      const response = await fetch(options.saveUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-csrf-token': options.csrf },
        body: JSON.stringify(sent.body),
      });
      const answer = (await response.json()) as { revision: number; ids: Record<string, number>; error?: string } & Partial<ConflictAnswer>;
      if (response.status === 409) return settle(answer as ConflictAnswer);
      if (!response.ok) {
        status.textContent = answer.error ?? 'The map could not be saved.';
        return;
      }
      const renames = state.saved(sent, answer);
      const renamed = selected === undefined ? undefined : renames.get(selected);
      if (renamed !== undefined) {
        // A new item saved while selected: edited on under its saved id.
        drawing.cancelEdit();
        selected = undefined;
        select(renamed);
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
    const items = answer.conflicts.map((conflict) =>
      conflict.theirs === null ? `“${named(state.features.get(conflict.id))}” (they deleted it)` : `“${named(state.features.get(conflict.id))}” (theirs: “${named(conflict.theirs)}”)`,
    );
    status.replaceChildren(element('span', {}, `${answer.error}${items.length > 0 ? ` In conflict: ${items.join(', ')}.` : ''}`));
    const keepMine = element('button', { type: 'button' }, 'Keep mine');
    const keepTheirs = element('button', { type: 'button', class: 'secondary' }, 'Keep theirs');
    keepMine.addEventListener('click', () => {
      state.keepMine(answer.conflicts, answer.revision, () => nextNewId--);
      void save();
    });
    keepTheirs.addEventListener('click', () => {
      state.takeTheirs(answer.conflicts, answer.revision);
      if (state.pending() > 0) void save();
      else status.textContent = 'Their version is kept.';
    });
    status.append(' ', keepMine, ' ', keepTheirs);
  }

  // ---- keyboard, leaving
  document.addEventListener('keydown', (event) => {
    if (!editing || previewing) return;
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
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
    if (state.pending() > 0) event.preventDefault();
  });

  // A new map (or a link with ?edit=1) opens with the tools on.
  setEditing(new URLSearchParams(location.search).get('edit') === '1');
  // A click on an item selects it with the Select tool; while drawing, the click is the drawing's.
  return { select: (id) => (editing && tool === 'select' && !previewing && !drawing.extending() ? select(id) : undefined), active: () => editing };
}
