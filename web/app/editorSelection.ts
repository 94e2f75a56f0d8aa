// The item open in the item panel: selecting it (its shape handed to the drawing for editing,
// taken off the map meanwhile), closing it (the keyboard back where it was opened from: ./editorFocus.ts),
// deleting it (said with an Undo: ./undoToast.ts) and following an undo or a redo. The selected
// id is the editor's state (./editorState.ts); this module keeps the map, the drawing and the
// panel in step with it.
import { isOverlay } from '../../lib/geojson/overlay.js';
import { isTextLabel } from '../../lib/textLabels.js';
import type { EditState } from './editState.js';
import type { EditorState } from './editorState.js';
import { returnFocus } from './editorFocus.js';
import type { ItemPanel } from './itemPanel.js';
import { kindOf } from './itemList.js';
import { isEditable, type Drawing, type MapView } from './mapAdapter.js';
import { copyFeature } from './mapFeature.js';
import type { UndoToast } from './undoToast.js';


export interface SelectionOptions {
  ui: EditorState;
  edits: EditState;
  view: MapView;
  drawing: () => Drawing;
  panel: () => ItemPanel;
  deletedToast: UndoToast;
  undo(): void;
}

export class Selection {
  constructor(private readonly options: SelectionOptions) {}

  select(id: number | undefined): void {
    const { ui, edits, view, deletedToast } = this.options;
    if (ui.selected.peek() === id) return;
    if (id !== undefined) deletedToast.hide();
    this.finishShapeEdit();
    const feature = id === undefined ? undefined : edits.features.get(id);
    ui.selected.value = feature ? id : undefined;
    const panel = this.options.panel();
    if (!feature) return panel.hide();
    panel.show(feature);
    // An image overlay is never a free polygon (a vertex added would make it invalid): it stays on
    // the map, adjusted by its corner handles and its panel's buttons (./editor.ts).
    if (isEditable(feature.geometry) && !isOverlay(feature.properties)) {
      const drawing = this.options.drawing();
      if (!isTextLabel(feature)) view.removeFeatures([feature.id]);
      drawing.edit(feature.id, feature.geometry);
      // A shape the drawing refuses (an area with holes) stays on the map as it is.
      if (drawing.editing() !== feature.id) view.putFeatures([feature]);
    }
  }

  /** Selects `id` and gives the keyboard to its panel's first field. */
  open(id: number): void {
    this.select(id);
    if (this.options.ui.selected.peek() === id) this.options.panel().focusTitle();
  }

  /** Closes the item panel (Done, Escape): the keyboard goes back to where the item was opened from. */
  close(): void {
    const panel = this.options.panel();
    // A field being typed in keeps what was typed (its change event comes with the blur).
    if (panel.root.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
    const id = this.options.ui.selected.peek();
    this.select(undefined);
    if (id !== undefined) returnFocus(id, this.options.view.keyboardElement());
  }

  deleteSelected(): void {
    const { ui, edits, view, deletedToast } = this.options;
    const id = ui.selected.peek();
    if (id === undefined) return;
    this.options.drawing().cancelEdit();
    const before = edits.features.get(id) ?? null;
    ui.selected.value = undefined;
    this.options.panel().hide();
    if (before) edits.apply({ id, before, after: null });
    returnFocus(undefined, view.keyboardElement());
    // Said (and announced) with an Undo that brings the item back, selected, its Title focused.
    deletedToast.show(`${before ? kindOf(before)[1] : 'Item'} deleted.`, () => {
      if (!edits.features.has(id)) this.options.undo();
      this.open(id);
    });
  }

  /** After an undo or a redo: the selected item as it is now (gone: nothing selected). */
  showSelected(): void {
    const { ui, edits } = this.options;
    const id = ui.selected.peek();
    const feature = id === undefined ? undefined : edits.features.get(id);
    if (feature) this.options.panel().show(feature);
    else {
      ui.selected.value = undefined;
      this.options.panel().hide();
    }
  }

  /** A new item saved while selected: edited on under its saved id. */
  renamed(renames: Map<number, number>): void {
    const id = this.options.ui.selected.peek();
    const renamed = id === undefined ? undefined : renames.get(id);
    if (renamed === undefined) return;
    this.options.drawing().cancelEdit();
    this.options.ui.selected.value = undefined;
    this.select(renamed);
  }

  /** Ends the shape edit of the selected item, keeping a changed geometry as one edit. */
  private finishShapeEdit(): void {
    const { edits, view } = this.options;
    const finished = this.options.drawing().finishEdit();
    if (!finished) return;
    const before = edits.features.get(finished.id);
    if (!before) return;
    if (JSON.stringify(before.geometry) === JSON.stringify(finished.geometry)) view.putFeatures([before]);
    else edits.apply({ id: finished.id, before, after: { ...copyFeature(before), geometry: finished.geometry } });
  }
}
