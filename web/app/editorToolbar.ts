// The editor's toolbar over the map (Edit map, the tools, Photo, Overlay, Undo, Redo, Save, Import, History;
// More on a phone: ./toolbarOverflow.ts) and the status line under it. It follows the editor's
// state (./editorState.ts) in one effect: pressed, hidden and disabled as the state says, never
// refreshed by hand. A button that goes or is disabled by what it did hands the keyboard to its
// neighbour (Save: the status line; ./editorFocus.ts).
import { effect } from '@preact/signals-core';
import { element } from './element.js';
import { keepFocus } from './editorFocus.js';
import type { EditState } from './editState.js';
import type { EditorState, Tool } from './editorState.js';
import type { ImageUploadTool } from './imageUploadTool.js';
import { ToolbarOverflow } from './toolbarOverflow.js';

const TOOLS: { tool: Tool; label: string; text: string }[] = [
  { tool: 'select', label: 'Select and edit items', text: 'Select' },
  { tool: 'box', label: 'Select several items: drag a box', text: 'Box' },
  { tool: 'point', label: 'Draw a point', text: 'Point' },
  { tool: 'linestring', label: 'Draw a line: click for each point, click the last one again to finish', text: 'Line' },
  { tool: 'polygon', label: 'Draw an area: click for each corner, click the first one to close it', text: 'Area' },
  { tool: 'text', label: 'Add a text label: click where it goes, then type', text: 'Text' },
];

export interface ToolbarOptions {
  ui: EditorState;
  edits: EditState;
  photo?: ImageUploadTool;
  overlay?: ImageUploadTool;
  importer?: HTMLButtonElement;
  /** History's panel, when the map has versions to show. */
  history?: { isOpen(): boolean; open(): Promise<void>; close(): void };
  setEditing(on: boolean): void;
  setTool(tool: Tool): void;
  undo(): void;
  redo(): void;
  save(): void;
}

export class EditorToolbar {
  readonly root = element('div', { class: 'editor-toolbar', role: 'toolbar', 'aria-label': 'Map editing' });
  readonly status = element('p', { class: 'editor-status', role: 'status', tabindex: '-1' });
  private readonly editButton = element('button', { type: 'button', 'aria-pressed': 'false', class: 'edit' }, 'Edit map');
  private readonly toolButtons = new Map<Tool, HTMLButtonElement>();
  private readonly undoButton = element('button', { type: 'button', 'aria-label': 'Undo (Ctrl+Z)' }, 'Undo');
  private readonly redoButton = element('button', { type: 'button', 'aria-label': 'Redo (Shift+Ctrl+Z)' }, 'Redo');
  private readonly saveButton = element('button', { type: 'button', class: 'save' }, 'Save');
  private readonly historyButton = element('button', { type: 'button', 'aria-pressed': 'false', 'aria-label': 'History: earlier versions of the map' }, 'History');
  private readonly overflow: ToolbarOverflow;

  constructor(private readonly options: ToolbarOptions) {
    const { ui, photo, overlay, importer, history } = options;
    this.editButton.addEventListener('click', () => options.setEditing(!ui.editing.value));
    this.root.append(this.editButton);
    for (const { tool, label, text } of TOOLS) {
      const button = element('button', { type: 'button', 'aria-label': label, 'aria-pressed': String(tool === 'select'), 'data-tool': tool }, text);
      button.addEventListener('click', () => options.setTool(tool));
      this.toolButtons.set(tool, button);
      this.root.append(button);
    }
    this.undoButton.addEventListener('click', () => options.undo());
    this.redoButton.addEventListener('click', () => options.redo());
    this.saveButton.addEventListener('click', () => options.save());
    if (photo) this.root.append(photo.button, photo.input);
    if (overlay) this.root.append(overlay.button, overlay.input);
    this.root.append(this.undoButton, this.redoButton, this.saveButton);
    if (importer) this.root.append(importer);
    this.root.append(this.historyButton);
    this.historyButton.hidden = !history;
    this.historyButton.addEventListener('click', () => {
      if (!history) return;
      if (history.isOpen()) history.close();
      else void history.open();
      this.historyButton.setAttribute('aria-pressed', String(history.isOpen()));
    });
    // One row: what does not fit goes into More (a phone), the drawing tools and Undo kept longest.
    const tools = (names: Tool[]) => names.map((name) => this.toolButtons.get(name)!);
    this.overflow = new ToolbarOverflow(this.root, [
      ...tools(['select', 'point', 'linestring', 'polygon']),
      this.undoButton,
      this.redoButton,
      this.editButton,
      ...tools(['box', 'text']),
      ...(photo ? [photo.button] : []),
      ...(overlay ? [overlay.button] : []),
      ...(importer ? [importer] : []),
      this.historyButton,
    ]);
  }

  /** From now on the toolbar follows the editor's state (once everything it reads exists). */
  follow(): void {
    const { ui } = this.options;
    effect(() => {
      const tool = ui.tool.value;
      for (const [name, button] of this.toolButtons) button.setAttribute('aria-pressed', String(name === tool));
    });
    effect(() => {
      const on = ui.editing.value;
      this.editButton.setAttribute('aria-pressed', String(on));
      this.editButton.textContent = on ? 'Stop editing' : 'Edit map';
      if (!on) this.historyButton.setAttribute('aria-pressed', 'false');
    });
    effect(() => {
      void ui.edits.value;
      const editing = ui.editing.value;
      const previewing = ui.previewing.value;
      const saving = ui.saving.value;
      // A button that goes (Undo with nothing left to undo, Save once saved) leaves the keyboard on
      // the toolbar; saved: on the status line that says so.
      keepFocus(this.root, () => this.draw(editing, previewing, saving), (gone) => (gone === this.saveButton ? this.status : undefined));
    });
  }

  private draw(editing: boolean, previewing: boolean, saving: boolean): void {
    const { edits, photo, overlay, importer, history } = this.options;
    this.undoButton.disabled = !edits.canUndo();
    this.redoButton.disabled = !edits.canRedo();
    const count = edits.pending();
    this.saveButton.disabled = count === 0 || saving;
    this.saveButton.textContent = count === 0 ? 'Saved' : `Save (${count})`;
    // The tools while editing; Save whenever something is unsaved.
    for (const button of [...this.toolButtons.values(), ...(photo ? [photo.button] : []), ...(overlay ? [overlay.button] : []), this.undoButton, this.redoButton, ...(importer ? [importer] : [])]) button.hidden = !editing;
    this.saveButton.hidden = !editing && count === 0;
    this.historyButton.hidden = !editing || !history;
    // A preview shows another version: drawing, undo and redo wait for the map's own items.
    for (const button of this.toolButtons.values()) button.disabled = previewing;
    if (photo) photo.button.disabled = previewing || photo.busy();
    if (overlay) overlay.button.disabled = previewing || overlay.busy();
    if (previewing) this.undoButton.disabled = this.redoButton.disabled = true;
    this.overflow.refresh();
  }
}
