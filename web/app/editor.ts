// The map editor for the map's owner and editors, put together from its parts: one editor state
// the views follow (./editorState.ts: signals), the toolbar and its status line (./editorToolbar.ts;
// Photo: ./photoTool.ts, Overlay: ./overlayTool.ts, Import: ./importDialog.ts, History: ./historyPanel.ts), the item panel of
// the selected item (./itemPanel.ts with ./itemMedia.ts; selecting, closing, deleting:
// ./editorSelection.ts), several items selected with the Box tool (./boxSelection.ts), text labels
// (lib/textLabels.ts) added with the Text tool, the item list with the groups' tools
// (./itemList.ts), undo and redo of every edit of the session and the unsaved changes
// (./editState.ts), Save and its conflicts (./editorSave.ts), the keys (./editorShortcuts.ts,
// ./keyboardDrawing.ts). The map itself is the adapter's: this module keeps the edits. A shape's
// finished drag (or vertex added, deleted, line extended) is an edit at once; the measure of what
// is drawn shows live (./drawingReadout.ts). The Find a place box (./placeSearch.ts) gets an Add
// button while editing.
import { effect } from '@preact/signals-core';
import { isOverlay, overlayCorners, overlayPolygon, type OverlayCorners } from '../../lib/geojson/overlay.js';
import type { Geometry } from '../../lib/geojson/geometry.js';
import type { Place } from '../../lib/places/placeSearch.js';
import { isTextLabel } from '../../lib/textLabels.js';
import { announce } from './announcer.js';
import { BoxSelection } from './boxSelection.js';
import { DrawingReadout } from './drawingReadout.js';
import { EditState } from './editState.js';
import { neverLost, openedFromList } from './editorFocus.js';
import { listenForShortcuts } from './editorShortcuts.js';
import { saving } from './editorSave.js';
import { Selection } from './editorSelection.js';
import { createEditorState, usable, type Tool } from './editorState.js';
import { EditorToolbar } from './editorToolbar.js';
import { groupEdits } from './groupEdits.js';
import type { MapGroup } from './groups.js';
import { HistoryPanel } from './historyPanel.js';
import { importButton } from './importDialog.js';
import { ItemList, kindOf } from './itemList.js';
import { ItemMedia } from './itemMedia.js';
import { ItemPanel, type PropertyValue } from './itemPanel.js';
import { startKeyboardDrawing, type VertexGeometry } from './keyboardDrawing.js';
import { isEditable, type Drawing, type MapView } from './mapAdapter.js';
import { copyFeature, type MapFeature } from './mapFeature.js';
import { imageValueOf, type ImageAnswer } from './mediaUpload.js';
import { moveCorner, placeOverlay } from './overlayGeometry.js';
import { overlayField } from './overlayPanel.js';
import { overlayTool as makeOverlayTool } from './overlayTool.js';
import { photoTool } from './photoTool.js';
import type { PlaceSearch } from './placeSearch.js';
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

export function startEditor(options: EditorOptions): Editor {
  const { view } = options;
  // The one state the views follow: the toolbar, the keyboard's help, the list, Find a place's Add.
  const ui = createEditorState();
  let nextNewId = -1_000_000;

  // ---- the item list beside the map follows the edits (and the groups' tools are in it)
  const listHost = document.querySelector<HTMLElement>('.item-list');
  let list: ItemList | undefined; // made once the state is (below)
  const showList = () => list?.show(state.groups, state.features);

  // Steps of many items (Box: a colour for all, Delete all; their undo and redo) reach the map in
  // one update, not one per item.
  let batched: Map<number, MapFeature | null> | undefined;
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
      if (batched) return void batched.set(id, feature);
      if (drawing.editing() === id) followEdited(id, feature);
      if (!feature) view.removeFeatures([id]);
      // A text label being moved stays on the map: its text shows while the panel edits it.
      else if (drawing.editing() !== id || isTextLabel(feature)) view.putFeatures([feature]);
      showList();
      ui.edits.value++;
    },
    options.groups,
    () => {
      showList();
      ui.edits.value++;
      // The open item panel's group dropdown lists the groups as they are now.
      const id = ui.selected.peek();
      if (id !== undefined && state.features.has(id)) panel.show(state.features.get(id)!);
    },
  );
  function inOneUpdate(run: () => void): void {
    batched = new Map();
    try {
      run();
    } finally {
      const changed = batched;
      batched = undefined;
      const edited = drawing.editing();
      if (edited !== undefined && changed.has(edited)) followEdited(edited, changed.get(edited)!);
      const removed = [...changed].filter(([, feature]) => !feature).map(([id]) => id);
      const put = [...changed.values()].filter((feature): feature is MapFeature => feature !== null && (drawing.editing() !== feature.id || isTextLabel(feature)));
      if (removed.length > 0) view.removeFeatures(removed);
      if (put.length > 0) view.putFeatures(put);
      showList();
      ui.edits.value++;
      boxed.refresh();
    }
  }
  if (listHost) {
    list = new ItemList(
      listHost,
      groupEdits(state, { apply: (step) => inOneUpdate(() => state.applyStep(step)), created: (id) => list?.openGroup(id), deleting: () => selection.select(undefined) }),
      options.listChanged,
    );
  }

  // ---- the toolbar (./editorToolbar.ts), the delete's Undo line, the selection
  const photo = options.imagesUrl
    ? photoTool({ imagesUrl: options.imagesUrl, csrf: options.csrf, report: (text) => (toolbar.status.textContent = text), add: addPhoto, changed: () => ui.edits.value++ })
    : undefined;
  const overlayTool = options.imagesUrl
    ? makeOverlayTool({ imagesUrl: options.imagesUrl, csrf: options.csrf, report: (text) => (toolbar.status.textContent = text), add: addOverlay, changed: () => ui.edits.value++ })
    : undefined;
  const importer = options.importUrl ? importButton({ importUrl: options.importUrl, csrf: options.csrf, unsaved: () => state.pending() }) : undefined;
  // While a version is previewed the map shows it, not the map's items: nothing is edited meanwhile.
  const history = options.versionsUrl
    ? new HistoryPanel({
        versionsUrl: options.versionsUrl,
        csrf: options.csrf,
        view: options.view,
        unsaved: () => state.pending(),
        previewing: (on) => {
          if (on) {
            selection.select(undefined);
            setTool('select');
          }
          ui.previewing.value = on;
        },
      })
    : undefined;
  const toolbar = new EditorToolbar({ ui, edits: state, photo, overlay: overlayTool, importer, history, setEditing, setTool, undo, redo, save: () => void save() });
  const save = saving({ ui, edits: state, saveUrl: options.saveUrl, csrf: options.csrf, status: toolbar.status, renamed, newId: () => nextNewId-- });
  // "Point deleted. Undo" under the toolbar after a delete, until the next action.
  const deletedToast = new UndoToast(() => view.keyboardElement());
  options.toolbarHost.append(toolbar.root, toolbar.status, deletedToast.root);
  const selection = new Selection({ ui, edits: state, view, drawing: () => drawing, panel: () => panel, deletedToast, undo });

  showList();
  const media =
    options.imagesUrl && options.markersUrl
      ? new ItemMedia({
          imagesUrl: options.imagesUrl,
          markersUrl: options.markersUrl,
          csrf: options.csrf,
          setProperties,
          shown: (id) => ((savedIds.get(id) ?? id) === ui.selected.peek() ? state.features.get(ui.selected.peek()!) : undefined),
        })
      : undefined;
  const panel = new ItemPanel(
    {
      setProperty: (name, value) => setProperties({ [name]: value }),
      setProperties,
      groups: () => state.groups,
      remove: () => selection.deleteSelected(),
      done: () => selection.close(),
      extend: () => drawing.extend(),
      moveTo: (at) => moveItem(ui.selected.peek(), at),
      overlay: (feature) => overlayField(feature, { setOpacity, reshape: (change) => reshapeOverlay(ui.selected.peek(), change) }),
    },
    media,
  );
  options.panelHost.prepend(panel.root);
  const boxed = new BoxSelection({
    state,
    view,
    panelHost: options.panelHost,
    applyStep: (step) => inOneUpdate(() => state.applyStep(step)),
    done: () => setTool('select'),
    // Delete all: said with an Undo that brings them back (the step is the last one until the line goes).
    deleted: (count) => deletedToast.show(`${count} ${count === 1 ? 'item' : 'items'} deleted.`, () => undo()),
  });
  if (history) options.panelHost.prepend(history.root);

  const drawing: Drawing = view.startDrawing((id, geometry) => {
    // The Text tool draws a point: it becomes a text label, its text typed in the panel.
    const properties = ui.tool.peek() === 'text' && geometry.type === 'Point' ? { text_label: true } : {};
    state.apply({ id, before: null, after: { type: 'Feature', id, geometry, properties } });
    setTool('select');
    selection.open(id);
    announce(`${kindOf(state.features.get(id)!)[1]} added.`);
  });
  // The keyboard on the map: a crosshair, Enter adds there, arrows move a selected point or a chosen vertex (./keyboardDrawing.ts).
  const keyboard = startKeyboardDrawing({
    view,
    drawing,
    helpHost: options.toolbarHost,
    tool: () => (usable(ui) ? ui.tool.value : undefined),
    selectedPoint: () => {
      const id = ui.selected.value;
      const geometry = id === undefined ? undefined : state.features.get(id)?.geometry;
      return geometry?.type === 'Point' ? { id: id!, coordinates: geometry.coordinates as [number, number] } : undefined;
    },
    movePoint: (id, at) => moveItem(id, at),
    selectedShape: () => {
      const id = ui.selected.value;
      const geometry = id === undefined ? undefined : state.features.get(id)?.geometry;
      // An image overlay's corners are its handles' and its panel's, never single vertices.
      if (id !== undefined && isOverlay(state.features.get(id)?.properties)) return undefined;
      return geometry?.type === 'LineString' || geometry?.type === 'Polygon' ? { id: id!, geometry: geometry as VertexGeometry } : undefined;
    },
    reshape: (id, geometry) => {
      const before = state.features.get(id);
      if (before) state.apply({ id, before, after: { ...copyFeature(before), geometry } });
    },
    open: (id) => selection.open(id),
  });
  neverLost([options.toolbarHost, options.panelHost], () => view.keyboardElement());
  // A finished drag (a vertex added or deleted, a line extended) is an edit at once: Save counts it.
  drawing.onEdited((id, geometry) => {
    const before = state.features.get(id);
    if (before && JSON.stringify(before.geometry) !== JSON.stringify(geometry)) state.apply({ id, before, after: { ...copyFeature(before), geometry } });
  });
  // Measures live: what is drawn in the readout over the map, what is edited in the item panel.
  const readout = new DrawingReadout();
  options.toolbarHost.append(readout.root);
  drawing.onShape((shape) => {
    readout.show(shape);
    if (shape && shape.id === ui.selected.peek()) panel.showMeasure(shape.geometry);
  });

  // ---- edits
  /** New items' ids, temporary → saved, so an upload that ends after a save finds its item. */
  const savedIds = new Map<number, number>();
  function renamed(renames: Map<number, number>): void {
    for (const [from, to] of renames) savedIds.set(from, to);
    selection.renamed(renames);
  }

  /** Sets properties of the selected item (or of item `id`) as one edit; undefined removes one. */
  function setProperties(changes: Record<string, PropertyValue | undefined>, id = ui.selected.peek()): void {
    if (id === undefined) return;
    id = savedIds.get(id) ?? id;
    const before = state.features.get(id);
    if (!before) return;
    const after = copyFeature(before);
    after.properties ??= {};
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) delete after.properties[name];
      else after.properties[name] = value;
    }
    if (JSON.stringify(after.properties) === JSON.stringify(before.properties ?? {})) return;
    state.apply({ id, before, after });
    if (id === ui.selected.peek() && ('color' in changes || 'marker-symbol' in changes)) panel.show(after);
  }

  /** Moves a point to [longitude, latitude] (its panel's fields, the keyboard's arrows): one edit. */
  function moveItem(id: number | undefined, at: [number, number]): void {
    const before = id === undefined ? undefined : state.features.get(id);
    if (!before || before.geometry?.type !== 'Point') return;
    const [lon, lat] = before.geometry.coordinates as number[];
    if (lon === at[0] && lat === at[1]) return;
    state.apply({ id: before.id, before, after: { ...copyFeature(before), geometry: { type: 'Point', coordinates: at } } });
  }

  /** The Photo tool's upload: a new point where the photo was taken (else the map's centre), selected. */
  function addPhoto(answer: ImageAnswer, title: string): void {
    const id = nextNewId--;
    const gps = answer.has_gps && answer.geometry?.type === 'Point' ? answer.geometry.coordinates : undefined;
    const properties: Record<string, unknown> = { ...(title ? { title } : {}), image: imageValueOf(answer) };
    state.apply({ id, before: null, after: { type: 'Feature', id, geometry: { type: 'Point', coordinates: gps ?? view.center() }, properties } });
    if (!usable(ui)) return;
    setTool('select');
    if (gps) view.focus(id); // the map goes to where it was taken
    selection.select(id);
  }

  /** The Overlay tool's upload: a new overlay in the middle of the view at the image's aspect ratio, selected. */
  function addOverlay(answer: ImageAnswer, title: string): void {
    const id = nextNewId--;
    const corners = placeOverlay(view.viewBounds(), answer.width, answer.height);
    const properties: Record<string, unknown> = { ...(title ? { title } : {}), overlay: true, image: imageValueOf(answer), opacity: 1 };
    state.apply({ id, before: null, after: { type: 'Feature', id, geometry: overlayPolygon(corners), properties } });
    if (!usable(ui)) return;
    setTool('select');
    selection.select(id);
  }

  const cornersOf = (feature: MapFeature | undefined): OverlayCorners | undefined =>
    feature?.geometry && isOverlay(feature.properties) ? overlayCorners(feature.geometry as Geometry) : undefined;

  /** An overlay's new corners: shown only while they are dragged (`done` false), else one edit. */
  function setCorners(id: number, corners: OverlayCorners, done = true): void {
    const before = state.features.get(id);
    if (!before) return;
    const after = { ...copyFeature(before), geometry: overlayPolygon(corners) };
    if (!done) return view.putFeatures([after]);
    if (JSON.stringify(after.geometry) === JSON.stringify(before.geometry)) return view.putFeatures([before]);
    state.apply({ id, before, after });
    if (id === ui.selected.peek()) panel.showMeasure(after.geometry);
  }

  /** The panel's move, size and turn buttons: the selected overlay's corners changed, one edit. */
  function reshapeOverlay(id: number | undefined, change: (corners: OverlayCorners) => OverlayCorners): void {
    const corners = id === undefined ? undefined : cornersOf(state.features.get(id));
    if (corners) setCorners(id!, change(corners));
  }

  /** The panel's opacity slider: the map follows while it slides; let go, one edit. */
  function setOpacity(opacity: number, done: boolean): void {
    const id = ui.selected.peek();
    const before = id === undefined ? undefined : state.features.get(id);
    if (!before || !isOverlay(before.properties)) return;
    if (done) return setProperties({ opacity });
    view.putFeatures([{ ...copyFeature(before), properties: { ...before.properties, opacity } }]);
  }

  /** Find a place's Add: a new point where the place is, titled with its name, selected (one undoable edit). */
  function addPlace(place: Place): void {
    const id = nextNewId--;
    state.apply({ id, before: null, after: { type: 'Feature', id, geometry: { type: 'Point', coordinates: [place.lon, place.lat] }, properties: { title: place.name } } });
    setTool('select');
    selection.select(id);
    toolbar.status.textContent = `“${place.name}” added as a point.`;
  }

  function undo(): void {
    if (!state.canUndo()) return;
    inOneUpdate(() => state.undo());
    selection.showSelected();
    announce('Undone.');
  }

  function redo(): void {
    if (!state.canRedo()) return;
    inOneUpdate(() => state.redo());
    selection.showSelected();
    announce('Redone.');
  }

  function setTool(next: Tool): void {
    if (next !== ui.tool.peek()) deletedToast.hide();
    if (next !== 'select') selection.select(undefined);
    ui.tool.value = next;
    drawing.setTool(next === 'text' ? 'point' : next === 'box' ? 'select' : next);
    boxed.setActive(next === 'box');
  }

  function setEditing(on: boolean): void {
    if (!on) {
      selection.select(undefined);
      setTool('select');
      history?.close();
    }
    ui.editing.value = on;
  }

  // ---- the views that follow the state
  toolbar.follow();
  effect(() => {
    void ui.edits.value;
    keyboard.refresh();
  });
  effect(() => list?.setEditing(ui.editing.value));
  // The selected image overlay's corner handles on the map (the Select tool's), following its edits.
  effect(() => {
    void ui.edits.value;
    const id = ui.selected.value;
    const on = usable(ui) && ui.tool.value === 'select' && id !== undefined;
    const corners = on ? cornersOf(state.features.get(id)) : undefined;
    view.overlayHandles(corners?.map(([lon, lat]) => [lon, lat]), corners && ((index, at, done) => {
      const now = cornersOf(state.features.get(id!));
      if (now) setCorners(id!, moveCorner(now, index, at), done);
    }));
  });
  effect(() => options.places?.setAdd(usable(ui) ? addPlace : undefined));

  // ---- keyboard, leaving
  listenForShortcuts(ui, { undo, redo, deleteSelected: () => selection.deleteSelected(), close: () => selection.close(), boxed });
  window.addEventListener('beforeunload', (event) => {
    if (state.pending() > 0) event.preventDefault();
  });

  // A new map (or a link with ?edit=1) opens with the tools on.
  setEditing(new URLSearchParams(location.search).get('edit') === '1');
  // A click on an item selects it with the Select tool; while drawing, the click is the drawing's.
  return {
    select: (id) => {
      if (!usable(ui) || ui.tool.peek() !== 'select' || drawing.extending()) return;
      // Opened from the item list: the keyboard goes to the panel's first field (and back to the list when it closes).
      const fromList = openedFromList();
      selection.select(id);
      if (fromList && ui.selected.peek() === id) panel.focusTitle();
    },
    active: () => ui.editing.peek(),
  };
}
