// The editor's History (in the side panel): the map's kept versions, newest first — when, who,
// what kind of change and how much — a preview of any of them on the map (the adapter shows the
// version's features instead of the map's; editing waits), and Restore, which brings the
// previewed version back as a new version (POST …/versions/{id}/restore) and reloads the page on
// it. Unsaved changes must be saved or undone first: a restore would otherwise lose them. The
// versions come a page at a time (100, newest first); Show older versions brings the next page.
import { element } from './element.js';
import { reloadWithTools } from './reloadWithTools.js';
import type { RestoreAnswer, VersionListAnswer, VersionListed } from '../../lib/mapVersions.js';
import type { MapFeature } from './mapFeature.js';
import type { MapView } from './mapAdapter.js';

export interface HistoryOptions {
  /** `/maps/{id}/versions`. */
  versionsUrl: string;
  csrf: string;
  view: MapView;
  /** How many changes are not saved yet. */
  unsaved(): number;
  /** Called when a preview starts or ends (the editor puts its tools away meanwhile). */
  previewing(on: boolean): void;
}

type Version = VersionListed;

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const items = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'item' : 'items'}`;

/** What a version did, in words. */
function described(version: Version, all: readonly Version[]): string {
  const counts = [
    version.added > 0 ? `${version.added.toLocaleString()} added` : '',
    version.changed > 0 ? `${version.changed.toLocaleString()} changed` : '',
    version.deleted > 0 ? `${version.deleted.toLocaleString()} deleted` : '',
  ].filter(Boolean);
  const amount = counts.length > 0 ? counts.join(', ') : 'groups or settings only';
  switch (version.kind) {
    case 'create':
      return `Created with ${items(version.added)}`;
    case 'save':
      return `Saved in the editor: ${amount}`;
    case 'append':
      return `Imported: ${items(version.added)} added`;
    case 'replace':
      return `Replaced through the API: ${items(version.added)} (there were ${version.deleted.toLocaleString()})`;
    case 'restore': {
      const from = all.find((other) => other.revision === version.restored_revision);
      return `Restored the version of ${from ? when(from.created_at) : 'an earlier time'}: ${amount}`;
    }
  }
}

export class HistoryPanel {
  readonly root = element('section', { class: 'history-panel', 'aria-labelledby': 'history-heading', hidden: '' });
  private readonly list = element('ol', { class: 'versions' });
  private readonly message = element('p', { class: 'history-message', role: 'status' });
  /** Why a restore cannot happen (the preview and its buttons stay). */
  private readonly notice = element('p', { class: 'history-message history-notice', role: 'alert' });
  /** Shown while older versions are kept than those listed. */
  private readonly older = element('button', { type: 'button', class: 'secondary', hidden: '' }, 'Show older versions');
  private versions: Version[] = [];
  private shown: Version | undefined;

  constructor(private readonly options: HistoryOptions) {
    const close = element('button', { type: 'button', class: 'secondary' }, 'Close');
    close.addEventListener('click', () => this.close());
    this.older.addEventListener('click', () => void this.showOlder());
    this.root.append(element('h2', { id: 'history-heading' }, 'History'), this.message, this.notice, this.list, this.older, ' ', close);
  }

  /** A page of versions: the newest, or those older than revision `before`. */
  private async page(before?: number): Promise<{ versions: Version[]; more: boolean }> {
    const response = await fetch(before === undefined ? this.options.versionsUrl : `${this.options.versionsUrl}?before=${before}`, { credentials: 'same-origin' });
    const answer = (await response.json()) as Partial<VersionListAnswer> & { error?: string };
    if (!response.ok || !answer.versions) throw new Error(answer.error ?? 'The versions could not be loaded.');
    return { versions: answer.versions, more: answer.more === true };
  }

  isOpen(): boolean {
    return !this.root.hidden;
  }

  async open(): Promise<void> {
    this.root.hidden = false;
    this.message.textContent = 'Loading the versions…';
    this.list.replaceChildren();
    this.older.hidden = true;
    let more: boolean;
    try {
      ({ versions: this.versions, more } = await this.page());
    } catch (error) {
      this.message.textContent = error instanceof Error && error.message ? error.message : 'The versions could not be loaded.';
      return;
    }
    this.message.textContent = this.versions.length === 0 ? 'No versions are kept for this map yet: the next save makes one.' : '';
    this.list.replaceChildren(...this.versions.map((version, index) => this.entry(version, index === 0)));
    this.older.hidden = !more;
    this.root.scrollIntoView({ block: 'nearest' });
  }

  /** The next page of older versions, added at the end of the list. */
  private async showOlder(): Promise<void> {
    const oldest = this.versions.at(-1);
    if (!oldest || this.older.disabled) return;
    this.older.disabled = true;
    this.older.textContent = 'Loading older versions…';
    try {
      const { versions, more } = await this.page(oldest.revision);
      this.versions.push(...versions);
      this.list.append(...versions.map((version) => this.entry(version, false)));
      this.older.hidden = !more;
    } catch (error) {
      this.message.textContent = error instanceof Error && error.message ? error.message : 'The versions could not be loaded.';
    } finally {
      this.older.disabled = false;
      this.older.textContent = 'Show older versions';
    }
  }

  close(): void {
    this.endPreview();
    this.root.hidden = true;
  }

  private entry(version: Version, current: boolean): HTMLLIElement {
    const entry = element('li', { class: current ? 'version current' : 'version', 'data-version-id': String(version.id) });
    const heading = element('p', { class: 'version-when' }, `${when(version.created_at)}${version.saved_by ? ` — ${version.saved_by}` : ''}${current ? ' (current)' : ''}`);
    entry.append(heading, element('p', { class: 'meta' }, `${described(version, this.versions)}. ${items(version.feature_count)} in the map.`));
    if (!current) {
      const preview = element('button', { type: 'button', class: 'secondary', 'aria-label': `Preview the version of ${when(version.created_at)}` }, 'Preview');
      preview.addEventListener('click', () => void this.preview(version));
      entry.append(preview);
    }
    return entry;
  }

  private async preview(version: Version): Promise<void> {
    this.message.textContent = 'Loading the version…';
    let features: MapFeature[];
    try {
      const response = await fetch(`${this.options.versionsUrl}/${version.id}/map.geojson`, { credentials: 'same-origin' });
      const answer = (await response.json()) as { features?: MapFeature[]; error?: string };
      if (!response.ok || !answer.features) throw new Error(answer.error ?? 'The version could not be loaded.');
      features = answer.features;
    } catch (error) {
      this.message.textContent = error instanceof Error && error.message ? error.message : 'The version could not be loaded.';
      return;
    }
    this.shown = version;
    this.options.previewing(true);
    this.options.view.preview(features);
    for (const node of this.list.querySelectorAll('.version')) node.classList.toggle('previewed', node.getAttribute('data-version-id') === String(version.id));
    const restore = element('button', { type: 'button' }, 'Restore this version');
    const back = element('button', { type: 'button', class: 'secondary' }, 'Back to the current map');
    restore.addEventListener('click', () => void this.restore(version));
    back.addEventListener('click', () => this.endPreview());
    this.message.replaceChildren(element('span', {}, `The map shows the version of ${when(version.created_at)} (${items(features.length)}). `), restore, ' ', back);
  }

  private endPreview(): void {
    if (!this.shown) return;
    this.shown = undefined;
    this.notice.textContent = '';
    this.options.view.preview(undefined);
    this.options.previewing(false);
    for (const node of this.list.querySelectorAll('.previewed')) node.classList.remove('previewed');
    this.message.textContent = '';
  }

  private async restore(version: Version): Promise<void> {
    const unsaved = this.options.unsaved();
    if (unsaved > 0) {
      this.notice.textContent = `You have ${unsaved === 1 ? 'a change' : `${unsaved} changes`} not saved: save or undo ${unsaved === 1 ? 'it' : 'them'} before restoring a version.`;
      return;
    }
    this.message.textContent = 'Restoring…';
    try {
      const response = await fetch(`${this.options.versionsUrl}/${version.id}/restore`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'x-csrf-token': this.options.csrf },
      });
      const answer = (await response.json()) as Partial<RestoreAnswer> & { error?: string };
      if (!response.ok || !answer.restored) throw new Error(answer.error ?? 'The version could not be restored.');
    } catch (error) {
      this.message.textContent = error instanceof Error && error.message ? error.message : 'The version could not be restored: the service did not answer.';
      return;
    }
    // The page again, on the restored map (its items, list and revision), with the tools on.
    reloadWithTools({ replace: true });
  }
}
