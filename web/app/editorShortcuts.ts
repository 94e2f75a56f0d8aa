// The editor's keys anywhere on the page while editing (not while a version is previewed):
// Ctrl/Cmd-Z undo, Shift-Ctrl/Cmd-Z redo, Delete or Backspace deletes the selected item (or the
// items Box selected), Escape closes the item panel (or clears Box's selection). Typing in a
// field keeps its own keys. The map's own keys (the crosshair, arrows) are ./keyboardDrawing.ts's.
import { usable, type EditorState } from './editorState.js';

export interface ShortcutActions {
  undo(): void;
  redo(): void;
  deleteSelected(): void;
  close(): void;
  /** Box's selection: its size, Delete all, clear. */
  boxed: { readonly size: number; removeAll(): void; clear(): void };
}

export function listenForShortcuts(ui: EditorState, actions: ShortcutActions): void {
  document.addEventListener('keydown', (event) => {
    if (!usable(ui)) return;
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
    const deleting = (event.key === 'Delete' || event.key === 'Backspace') && !typing;
    const selected = ui.selected.peek();
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z' && !typing) {
      event.preventDefault();
      if (event.shiftKey) actions.redo();
      else actions.undo();
    } else if (deleting && selected !== undefined) {
      event.preventDefault();
      actions.deleteSelected();
    } else if (deleting && actions.boxed.size > 0) {
      event.preventDefault();
      actions.boxed.removeAll();
    } else if (event.key === 'Escape' && selected !== undefined) {
      actions.close();
    } else if (event.key === 'Escape' && ui.tool.peek() === 'box') {
      actions.boxed.clear();
    }
  });
}
