// The editor's one state that its views follow (issue 26, "The editor's centre"): whether the
// tools are on, the tool, the selected item, a version previewed, a save under way, and a counter
// of the edits (./editState.ts keeps the edits themselves and tells each change). Signals
// (@preact/signals-core, web/README.md says why): a view that reads one in an `effect` is drawn
// again when it changes, instead of every action remembering to refresh it.
import { signal, type Signal } from '@preact/signals-core';
import type { DrawTool } from './mapAdapter.js';

/** The drawing's tools, and the editor's own: Box (select several) and Text (a text label, drawn as a point). */
export type Tool = DrawTool | 'box' | 'text';

export interface EditorState {
  /** The editing tools are on (else the map is shown as visitors see it). */
  editing: Signal<boolean>;
  tool: Signal<Tool>;
  selected: Signal<number | undefined>;
  /** A version is previewed (./historyPanel.ts): nothing is edited meanwhile. */
  previewing: Signal<boolean>;
  saving: Signal<boolean>;
  /** Counts the changes of the edits (undo, redo, save, a photo's upload): what reads it follows them. */
  edits: Signal<number>;
}

export function createEditorState(): EditorState {
  return { editing: signal(false), tool: signal<Tool>('select'), selected: signal(undefined), previewing: signal(false), saving: signal(false), edits: signal(0) };
}

/** The state's tools are usable: editing, and no version previewed. */
export const usable = (state: EditorState): boolean => state.editing.value && !state.previewing.value;
