// The map editor for the map's owner and editors: a toolbar (Edit map, then Select, Box, Point,
// Line, Area, Text, Photo: ./photoTool.ts, Undo, Redo, Save, and Import: ./importDialog.ts), the
// item panel of the selected item (./itemPanel.ts, with its image and custom icon:
// ./itemMedia.ts), several items selected with the Box tool (./boxSelection.ts), text labels
// (lib/textLabels.ts) added with the Text tool, the item list with the groups' tools
// (./itemList.ts), undo and redo of every edit of the session and the unsaved changes
// (./editState.ts), and Save, which sends only what changed since the revision the page loaded
// (POST /maps/{id}/save) and settles conflicts with what others saved meanwhile. The map itself
// is the adapter's: this module keeps the edits. A shape's finished drag (or vertex added,
// deleted, line extended) is an edit at once; the measure of what is drawn shows live
// (./drawingReadout.ts). The Find a place box (./placeSearch.ts) gets an Add button while editing.
import type { Place } from '../../lib/places/placeSearch.js';
import { isTextLabel } from '../../lib/textLabels.js';
import { BoxSelection } from './boxSelection.js';
import { DrawingReadout } from './drawingReadout.js';
import { EditState, type Conflict } from './editState.js';
import { groupEdits } from './groupEdits.js';
import { groupOf, type GroupId, type MapGroup } from './groups.js';
import { HistoryPanel } from './historyPanel.js';
import { importButton } from './importDialog.js';
import { announce } from './announcer.js';
import { keepFocus, neverLost, openedFromList, returnFocus } from './editorFocus.js';
import { ItemList, kindOf } from './itemList.js';
import { startKeyboardDrawing } from './keyboardDrawing.js';
import { ItemMedia } from './itemMedia.js';
import { element } from './element.js';
import { ItemPanel, type PropertyValue } from './itemPanel.js';
import { isEditable, type Drawing, type DrawTool, type MapFeature, type MapView } from './mapAdapter.js';
import { imageValueOf, type ImageAnswer } from './mediaUpload.js';
import { PhotoTool } from './photoTool.js';
import type { PlaceSearch } from './placeSearch.js';
import { ToolbarOverflow } from './toolbarOverflow.js';
import { UndoToast } from './undoToast.js';

export interface EditorOptions {
  view: MapView;
  features: MapFeature[];
  groups: MapGroup[];
  /** The revision the features are of (X-Map-Revision). */
  revision: number;
  saveUrl: string;
  /** Where the Import button sends files (./importDialog.ts). */
  importUrl?: string;
  /** The map's versions (./historyPanel.ts). */
  versionsUrl?: string;
  /** Where photos and custom icons are uploaded (./itemMedia.ts, ./photoTool.ts). */
  imagesUrl?: string;
  markersUrl?: string;
  csrf: string;
  /** Where the toolbar goes (over the map) and where the item panel goes (the side panel). */
  toolbarHost: HTMLElement;
  panelHost: HTMLElement;
  /** The Find a place box over the map: its Add button puts the place found on the map. */
  places?: PlaceSearch;
  /** Told when the item list was drawn again (its eye toggles and filter are the page's). */
  listChanged: () => void;
}

export interface Editor {
  select(id: number | undefined): void;
  /** Whether the editing tools are on (else the map is shown as visitors see it, popups and all). */
  active(): boolean;
}

type ConflictAnswer = { conflicts: Conflict[]; group_conflicts: { group: GroupId; items: number }[]; revision: number; error: string };

/** The drawing's tools, and the editor's own: Box (select several) and Text (a text label, drawn as a point). */
type Tool = DrawTool | 'box' | 'text';

const TOOLS: { tool: Tool; label: string; text: string }[] = [
  { tool: 'select', label: 'Select and edit items', text: 'Select' },
  { tool: 'box', label: 'Select several items: drag a box', text: 'Box' },
  { tool: 'point', label: 'Draw a point', text: 'Point' },
  { tool: 'linestring', label: 'Draw a line: click for each point, click the last one again to finish', text: 'Line' },
  { tool: 'polygon', label: 'Draw an area: click for each corner, click the first one to close it', text: 'Area' },
  { tool: 'text', label: 'Add a text label: click where it goes, then type', text: 'Text' },
];

const copy = (feature: MapFeature): MapFeature => JSON.parse(JSON.stringify(feature)) as MapFeature;
const named = (feature: MapFeature | null | undefined) => (typeof feature?.properties?.title === 'string' && feature.properties.title) || 'an untitled item';

export function startEditor(options: EditorOptions): Editor {
  const { view } = options;
  let selected: number | undefined;
  let tool: Tool = 'select';
  let editing = false;
  let saving = false;
  let previewing = false;
  let nextNewId = -1_000_000;

  // ---- the item list beside the map follows the edits (and the groups' tools are in it)
  const listHost = document.querySelector<HTMLElement>('.item-list');
  let list: ItemList | undefined; // made once the state is (below)
  const showList = () => list?.show(state.groups, state.features);

  // Steps of many items (Box: a colour for all, Delete all; their undo and redo) reach the map in
  // one update, not one per item.
  let batch: Map<number, MapFeature | null> | undefined;
  /** The item being edited in the drawing changed (an undo or a redo): its handles follow, or it leaves. */
  function followEdited(id: number, feature: MapFeature | null): void {
    if (!feature) drawing.cancelEdit();
    else if (isEditable(feature.geometry)) drawing.setGeometry(id, feature.geometry);
  }
  const state = new EditState(
    options.features,
    options.revision,
    (id, feature) => {
      deletedToast.hide(); // the next edit: the delete's Undo line goes
      if (batch) return void batch.set(id, feature);
      if (drawing.editing() === id) followEdited(id, feature);
      if (!feature) view.removeFeatures([id]);
      // A text label being moved stays on the map: its text shows while the panel edits it.
      else if (drawing.editing() !== id || isTextLabel(feature)) view.putFeatures([feature]);
      showList();
      refreshButtons();
    },
    options.groups,
    () => {
      showList();
      refreshButtons();
      // The open item panel's group dropdown lists the groups as they are now.
      if (selected !== undefined && state.features.has(selected)) panel.show(state.features.get(selected)!);
    },
  );
  function batched(run: () => void): void {
    batch = new Map();
    try {
      run();
    } finally {
      const changed = batch;
      batch = undefined;
      const edited = drawing.editing();
      if (edited !== undefined && changed.has(edited)) followEdited(edited, changed.get(edited)!);
      const removed = [...changed].filter(([, feature]) => !feature).map(([id]) => id);
      const put = [...changed.values()].filter((feature): feature is MapFeature => feature !== null && (drawing.editing() !== feature.id || isTextLabel(feature)));
      if (removed.length > 0) view.removeFeatures(removed);
      if (put.length > 0) view.putFeatures(put);
      showList();
      refreshButtons();
      boxed.refresh();
    }
  }
  if (listHost) {
    list = new ItemList(
      listHost,
      groupEdits(state, { apply: (step) => batched(() => state.applyStep(step)), created: (id) => list?.openGroup(id), deleting: () => select(undefined) }),
      options.listChanged,
    );
  }

  // ---- the toolbar: Edit map turns the tools on and off
  const toolbar = element('div', { class: 'editor-toolbar', role: 'toolbar', 'aria-label': 'Map editing' });
  const editButton = element('button', { type: 'button', 'aria-pressed': 'false', class: 'edit' }, 'Edit map');
  editButton.addEventListener('click', () => setEditing(!editing));
  toolbar.append(editButton);
  const toolButtons = new Map<Tool, HTMLButtonElement>();
  for (const { tool: name, label, text } of TOOLS) {
    const button = element('button', { type: 'button', 'aria-label': label, 'aria-pressed': String(name === 'select'), 'data-tool': name }, text);
    button.addEventListener('click', () => setTool(name));
    toolButtons.set(name, button);
    toolbar.append(button);
  }
  const undoButton = element('button', { type: 'button', 'aria-label': 'Undo (Ctrl+Z)' }, 'Undo');
  const redoButton = element('button', { type: 'button', 'aria-label': 'Redo (Shift+Ctrl+Z)' }, 'Redo');
  const saveButton = element('button', { type: 'button', class: 'save' }, 'Save');
  const status = element('p', { class: 'editor-status', role: 'status', tabindex: '-1' });
  undoButton.addEventListener('click', () => undo());
  redoButton.addEventListener('click', () => redo());
  saveButton.addEventListener('click', () => void save());
  const photo = options.imagesUrl
    ? new PhotoTool({ imagesUrl: options.imagesUrl, csrf: options.csrf, report: (text) => (status.textContent = text), add: addPhoto, changed: () => refreshButtons() })
    : undefined;
  if (photo) toolbar.append(photo.button, photo.input);
  toolbar.append(undoButton, redoButton, saveButton);
  const importer = options.importUrl ? importButton({ importUrl: options.importUrl, csrf: options.csrf, unsaved: () => state.pending() }) : undefined;
  if (importer) toolbar.append(importer);
  const historyButton = element('button', { type: 'button', 'aria-pressed': 'false', 'aria-label': 'History: earlier versions of the map' }, 'History');
  toolbar.append(historyButton);
  // One row: what does not fit goes into More (a phone), the drawing tools and Undo kept longest.
  const overflow = new ToolbarOverflow(toolbar, [
    ...(['select', 'point', 'linestring', 'polygon'] as const).map((name) => toolButtons.get(name)!),
    undoButton,
    redoButton,
    editButton,
    toolButtons.get('box')!,
    toolButtons.get('text')!,
    ...(photo ? [photo.button] : []),
    ...(importer ? [importer] : []),
    historyButton,
  ]);
  // "Point deleted. Undo" under the toolbar after a delete, until the next action.
  const deletedToast = new UndoToast(() => view.keyboardElement());
  options.toolbarHost.append(toolbar, status, deletedToast.root);

  showList();
  const media =
    options.imagesUrl && options.markersUrl
      ? new ItemMedia({
          imagesUrl: options.imagesUrl,
          markersUrl: options.markersUrl,
          csrf: options.csrf,
          setProperties,
          shown: (id) => ((savedIds.get(id) ?? id) === selected ? state.features.get(selected) : undefined),
        })
      : undefined;
  const panel = new ItemPanel(
    { setProperty: (name, value) => setProperties({ [name]: value }), setProperties, groups: () => state.groups, remove: deleteSelected, done: () => close(), extend: () => drawing.extend(), moveTo: (at) => moveItem(selected, at) },
    media,
  );
  options.panelHost.prepend(panel.root);
  const boxed = new BoxSelection({ state, view, panelHost: options.panelHost, applyStep: (step) => batched(() => state.applyStep(step)),
    done: () => setTool('select'),
    // Delete all: said with an Undo that brings them back (the step is the last one until the line goes).
    deleted: (count) => deletedToast.show(`${count} ${count === 1 ? 'item' : 'items'} deleted.`, () => undo()),
  });
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
    // The Text tool draws a point: it becomes a text label, its text typed in the panel.
    const properties = tool === 'text' && geometry.type === 'Point' ? { text_label: true } : {};
    state.apply({ id, before: null, after: { type: 'Feature', id, geometry, properties } });
    setTool('select');
    select(id);
    panel.focusTitle();
    announce(`${kindOf(state.features.get(id)!)[1]} added.`);
  });
  // The keyboard on the map: a crosshair, Enter adds there, arrows move a selected point (./keyboardDrawing.ts).
  const keyboard = startKeyboardDrawing({
    view,
    drawing,
    helpHost: options.toolbarHost,
    tool: () => (editing && !previewing ? tool : undefined),
    selectedPoint: () => {
      const geometry = selected === undefined ? undefined : state.features.get(selected)?.geometry;
      return geometry?.type === 'Point' ? { id: selected!, coordinates: geometry.coordinates as [number, number] } : undefined;
    },
    movePoint: (id, at) => moveItem(id, at),
    open: (id) => {
      select(id);
      if (selected === id) panel.focusTitle();
    },
  });
  neverLost([options.toolbarHost, options.panelHost], () => view.keyboardElement());
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
  /** New items' ids, temporary → saved, so an upload that ends after a save finds its item. */
  const savedIds = new Map<number, number>();

  /** Sets properties of the selected item (or of item `id`) as one edit; undefined removes one. */
  function setProperties(changes: Record<string, PropertyValue | undefined>, id = selected): void {
    if (id === undefined) return;
    id = savedIds.get(id) ?? id;
    const before = state.features.get(id);
    if (!before) return;
    const after = copy(before);
    after.properties ??= {};
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) delete after.properties[name];
      else after.properties[name] = value;
    }
    if (JSON.stringify(after.properties) === JSON.stringify(before.properties ?? {})) return;
    state.apply({ id, before, after });
    if (id === selected && ('color' in changes || 'marker-symbol' in changes)) panel.show(after);
  }

  /** Moves a point to [longitude, latitude] (its panel's fields, the keyboard's arrows): one edit. */
  function moveItem(id: number | undefined, at: [number, number]): void {
    const before = id === undefined ? undefined : state.features.get(id);
    if (!before || before.geometry?.type !== 'Point') return;
    const [lon, lat] = before.geometry.coordinates as number[];
    if (lon === at[0] && lat === at[1]) return;
    state.apply({ id: before.id, before, after: { ...copy(before), geometry: { type: 'Point', coordinates: at } } });
  }

  /** Closes the item panel (Done, Escape): the keyboard goes back to where the item was opened from. */
  function close(): void {
    // A field being typed in keeps what was typed (its change event comes with the blur).
    if (panel.root.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
    const id = selected;
    select(undefined);
    if (id !== undefined) returnFocus(id, view.keyboardElement());
  }

  /** The Photo tool's upload: a new point where the photo was taken (else the map's centre), selected. */
  function addPhoto(answer: ImageAnswer, title: string): void {
    const id = nextNewId--;
    const gps = answer.has_gps && answer.geometry?.type === 'Point' ? answer.geometry.coordinates : undefined;
    const properties: Record<string, unknown> = { ...(title ? { title } : {}), image: imageValueOf(answer) };
    state.apply({ id, before: null, after: { type: 'Feature', id, geometry: { type: 'Point', coordinates: gps ?? view.center() }, properties } });
    if (!editing || previewing) return;
    setTool('select');
    if (gps) view.focus(id); // the map goes to where it was taken
    select(id);
  }

  /** Find a place's Add: a new point where the place is, titled with its name, selected (one undoable edit). */
  function addPlace(place: Place): void {
    const id = nextNewId--;
    state.apply({ id, before: null, after: { type: 'Feature', id, geometry: { type: 'Point', coordinates: [place.lon, place.lat] }, properties: { title: place.name } } });
    setTool('select');
    select(id);
    status.textContent = `“${place.name}” added as a point.`;
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
    if (id !== undefined) deletedToast.hide();
    finishShapeEdit();
    const feature = id === undefined ? undefined : state.features.get(id);
    selected = feature ? id : undefined;
    keyboard.refresh();
    if (!feature) return panel.hide();
    panel.show(feature);
    if (isEditable(feature.geometry)) {
      if (!isTextLabel(feature)) view.removeFeatures([feature.id]);
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
    keyboard.refresh();
    if (before) state.apply({ id, before, after: null });
    returnFocus(undefined, view.keyboardElement());
    // Said (and announced) with an Undo that brings the item back, selected, its Title focused.
    deletedToast.show(`${before ? kindOf(before)[1] : 'Item'} deleted.`, () => {
      if (!state.features.has(id)) undo();
      select(id);
      if (selected === id) panel.focusTitle();
    });
  }

  function undo(): void {
    if (!state.canUndo()) return;
    batched(() => state.undo());
    showSelected();
    announce('Undone.');
  }

  function redo(): void {
    if (!state.canRedo()) return;
    batched(() => state.redo());
    showSelected();
    announce('Redone.');
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

  function setTool(next: Tool): void {
    if (next !== tool) deletedToast.hide();
    if (next !== 'select') select(undefined);
    tool = next;
    drawing.setTool(next === 'text' ? 'point' : next === 'box' ? 'select' : next);
    boxed.setActive(next === 'box');
    for (const [name, button] of toolButtons) button.setAttribute('aria-pressed', String(name === next));
    keyboard.refresh();
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
    list?.setEditing(on);
    refreshButtons();
  }

  function refreshButtons(): void {
    // A button that goes (Undo with nothing left to undo, Save once saved) leaves the keyboard on the toolbar.
    keepFocus(
      toolbar,
      () => {
        refreshToolbar();
        keyboard.refresh();
      },
      // Saved: the keyboard on the status line that says so.
      (gone) => (gone === saveButton ? status : undefined),
    );
  }

  function refreshToolbar(): void {
    undoButton.disabled = !state.canUndo();
    redoButton.disabled = !state.canRedo();
    const count = state.pending();
    saveButton.disabled = count === 0 || saving;
    saveButton.textContent = count === 0 ? 'Saved' : `Save (${count})`;
    // The tools while editing; Save whenever something is unsaved.
    for (const button of [...toolButtons.values(), ...(photo ? [photo.button] : []), undoButton, redoButton, ...(importer ? [importer] : [])]) button.hidden = !editing;
    saveButton.hidden = !editing && count === 0;
    historyButton.hidden = !editing || !history;
    // A preview shows another version: drawing, undo and redo wait for the map's own items.
    for (const button of toolButtons.values()) button.disabled = previewing;
    if (photo) photo.button.disabled = previewing || photo.busy();
    options.places?.setAdd(editing && !previewing ? addPlace : undefined);
    if (previewing) undoButton.disabled = redoButton.disabled = true;
    overflow.refresh();
  }

  // ---- saving
  async function save(): Promise<void> {
    if (saving || state.pending() === 0) return;
    saving = true;
    status.textContent = 'Saving…'; // first: the keyboard goes to it when Save is disabled
    refreshButtons();
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
      for (const [from, to] of renames) savedIds.set(from, to);
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

  /**
   * Someone else saved the same items meanwhile: the person chooses whose version stays. Groups
   * this person deleted that others put items in meanwhile stay, for those items.
   */
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
    } else if ((event.key === 'Delete' || event.key === 'Backspace') && !typing && boxed.size > 0) {
      event.preventDefault();
      boxed.removeAll();
    } else if (event.key === 'Escape' && selected !== undefined) {
      close();
    } else if (event.key === 'Escape' && tool === 'box') {
      boxed.clear();
    }
  });
  window.addEventListener('beforeunload', (event) => {
    if (state.pending() > 0) event.preventDefault();
  });

  // A new map (or a link with ?edit=1) opens with the tools on.
  setEditing(new URLSearchParams(location.search).get('edit') === '1');
  // A click on an item selects it with the Select tool; while drawing, the click is the drawing's.
  return {
    select: (id) => {
      if (!editing || tool !== 'select' || previewing || drawing.extending()) return;
      // Opened from the item list: the keyboard goes to the panel's first field (and back to the list when it closes).
      const fromList = openedFromList();
      select(id);
      if (fromList && selected === id) panel.focusTitle();
    },
    active: () => editing,
  };
}
