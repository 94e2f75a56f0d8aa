// Several items selected at once with the editor's Box tool: which ones (the visible items a box
// dragged on the map touches, ./boxHitTest.ts through the map adapter; Shift adds), their outline
// on the map, and the panel saying how many (./selectionPanel.ts) with a colour for all and
// Delete all, each one step of the history (undone and redone as a whole).
import type { EditState, Step } from './editState.js';
import { copyFeature, type MapFeature } from './mapFeature.js';
import type { MapView } from './mapAdapter.js';
import { SelectionPanel } from './selectionPanel.js';

export interface BoxSelectionOptions {
  state: EditState;
  view: MapView;
  /** Where the panel goes (the side panel). */
  panelHost: HTMLElement;
  /** Makes a step of many items (the editor sends it to the map in one update). */
  applyStep(step: Step): void;
  /** Done: the person is finished with the selection (the editor goes back to Select). */
  done(): void;
  /** Delete all deleted `count` items (the editor says so, with an Undo). */
  deleted(count: number): void;
}


export class BoxSelection {
  private ids = new Set<number>();
  private on = false;
  private readonly panel: SelectionPanel;

  constructor(private readonly options: BoxSelectionOptions) {
    this.panel = new SelectionPanel({ setColor: (colour) => this.setColor(colour), removeAll: () => this.removeAll(), done: options.done });
    options.panelHost.prepend(this.panel.root);
  }

  get size(): number {
    return this.ids.size;
  }

  /** The Box tool on or off: off, the selection and its panel go. */
  setActive(on: boolean): void {
    this.on = on;
    this.options.view.boxSelect(on, (ids, additive) => this.select(ids, additive));
    this.ids = new Set();
    if (on) this.refresh();
    else {
      this.options.view.outline([]);
      this.panel.hide();
    }
  }

  select(ids: readonly number[], additive: boolean): void {
    this.ids = additive ? new Set([...this.ids, ...ids]) : new Set(ids);
    this.refresh();
  }

  clear(): void {
    this.select([], false);
  }

  /** After edits (and their undo): the items still there, outlined, and the panel saying how many. */
  refresh(): void {
    if (!this.on) return;
    const { state, view } = this.options;
    this.ids = new Set([...this.ids].filter((id) => state.features.has(id)));
    view.outline([...this.ids]);
    const colours = new Set([...this.ids].map((id) => state.features.get(id)?.properties?.color));
    const [colour] = colours;
    this.panel.show(this.ids.size, colours.size === 1 && typeof colour === 'string' ? colour : undefined);
  }

  setColor(colour: string): void {
    this.edit((before) => {
      if (before.properties?.color === colour) return undefined;
      const after = copyFeature(before);
      after.properties = { ...after.properties, color: colour };
      return after;
    });
  }

  removeAll(): void {
    const count = this.edit(() => null);
    if (count > 0) this.options.deleted(count);
  }

  /** One step of the history: each selected item as `change` makes it (undefined: left as it is); how many it changed. */
  private edit(change: (feature: MapFeature) => MapFeature | null | undefined): number {
    const edits = [...this.ids].flatMap((id) => {
      const before = this.options.state.features.get(id);
      const after = before && change(before);
      return before && after !== undefined ? [{ id, before, after }] : [];
    });
    if (edits.length > 0) this.options.applyStep({ edits });
    return edits.length;
  }
}
