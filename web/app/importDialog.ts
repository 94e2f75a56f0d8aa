// The editor's Import: a toolbar button opening a dialog (<dialog>) to add a file's items to the
// map — KML/KMZ, GPX, GeoJSON, CSV, XLSX/XLS/ODS, zipped Shapefile, FlatGeobuf, GeoPackage, told by the service from the file's content —,
// optionally into a new group. The file goes to POST /maps/{id}/import (the API's append
// workflow); the dialog shows the upload's progress, then the summary: how many items were
// imported and the rows left out with their reasons (the first 20). The new items are shown by
// reloading the page, so an import waits until the editor has no unsaved changes.
import type { WebImportAnswer } from '../../lib/webImport.js';
import { element } from './element.js';
import { reloadWithTools } from './reloadWithTools.js';

export interface ImportOptions {
  importUrl: string;
  csrf: string;
  /** How many edits are unsaved: an import reloads the map, which would lose them. */
  unsaved(): number;
}

/** The import's answer, or its error. */
type ImportAnswer = Partial<WebImportAnswer> & { error?: string };

/** How many skipped rows the summary lists. */
const LISTED_SKIPS = 20;
/** The service's last skipped item when it left some out of its list. */
const MORE = /^and (\d+) more items? skipped$/;

const FORMAT_NAMES: Record<string, string> = {
  kml: 'KML',
  kmz: 'KMZ',
  gpx: 'GPX',
  geojson: 'GeoJSON',
  csv: 'CSV',
  xlsx: 'XLSX',
  xls: 'XLS',
  ods: 'ODS',
  shapefile: 'Shapefile',
  flatgeobuf: 'FlatGeobuf',
  geopackage: 'GeoPackage',
};

const SAVE_FIRST = 'Save your changes first: importing reloads the map, and your unsaved changes would be lost.';

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;
const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;


/**
 * Sends the form; `progress` gets the share of the file sent (0–1). XMLHttpRequest, not fetch:
 * fetch reports no upload progress, and a 15 MB file takes a while on a slow line.
 */
function send(options: ImportOptions, form: FormData, progress: (sent: number) => void): Promise<{ status: number; answer: ImportAnswer }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', options.importUrl);
    request.withCredentials = true;
    request.setRequestHeader('x-csrf-token', options.csrf);
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) progress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const answer = request.response as ImportAnswer | null;
      resolve({ status: request.status, answer: answer ?? { error: `The service answered HTTP ${request.status}.` } });
    });
    request.addEventListener('error', () => reject(new Error('network')));
    request.send(form);
  });
}

class ImportDialog {
  private readonly dialog = element('dialog', { class: 'import-dialog', 'aria-labelledby': 'import-heading' });
  private readonly form = element('form', { method: 'dialog' });
  private readonly file = element('input', { id: 'import-file', type: 'file', accept: '.kml,.kmz,.gpx,.geojson,.json,.csv,.tsv,.txt,.xlsx,.xls,.ods,.zip,.shp,.fgb,.gpkg' });
  private readonly newGroup = element('input', { id: 'import-new-group', type: 'checkbox' });
  private readonly groupTitle = element('input', { id: 'import-group-title', type: 'text', maxlength: '500' });
  private readonly groupField = element('p', { class: 'field' });
  private readonly status = element('p', { class: 'import-status', role: 'status' });
  /** The bytes sent, then (no value: moving) the import's reading of them. */
  private readonly progress = element('progress', { class: 'import-progress', max: '1', 'aria-label': 'Import progress' });
  private readonly summary = element('section', { class: 'import-summary', 'aria-label': 'Import summary' });
  private readonly importButton = element('button', { type: 'submit' }, 'Import');
  private readonly closeButton = element('button', { type: 'button', class: 'secondary' }, 'Cancel');
  private running = false;
  private imported = false;

  constructor(private readonly options: ImportOptions) {
    const fileField = element('p', { class: 'field' });
    fileField.append(element('label', { for: 'import-file' }, 'File'), this.file);
    const hint = element('p', { class: 'hint' }, 'KML or KMZ (Google Earth, My Maps), GPX, GeoJSON, or a table with latitude and longitude columns (CSV, XLSX, XLS, ODS), a zipped Shapefile, FlatGeobuf or GeoPackage. The format is recognised from the file itself.');
    const checkbox = element('p', { class: 'field checkbox' });
    checkbox.append(this.newGroup, element('label', { for: 'import-new-group' }, 'Put into a new group'));
    this.groupField.append(element('label', { for: 'import-group-title' }, 'Title of the new group'), this.groupTitle);
    this.groupField.hidden = true;
    const actions = element('p', { class: 'actions' });
    actions.append(this.importButton, this.closeButton);
    this.summary.hidden = true;
    this.progress.hidden = true;
    this.form.append(element('h2', { id: 'import-heading' }, 'Import a file'), hint, fileField, checkbox, this.groupField, this.status, this.progress, this.summary, actions);
    this.dialog.append(this.form);
    document.body.append(this.dialog);

    this.newGroup.addEventListener('change', () => {
      this.groupField.hidden = !this.newGroup.checked;
      if (this.newGroup.checked && this.groupTitle.value.trim() === '') this.groupTitle.value = this.fileTitle();
      if (this.newGroup.checked) this.groupTitle.focus();
    });
    this.file.addEventListener('change', () => {
      this.sayUnsaved();
      if (this.newGroup.checked && this.groupTitle.value.trim() === '') this.groupTitle.value = this.fileTitle();
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.closeButton.addEventListener('click', () => this.dialog.close());
    // Closed after an import (Escape too): the page shows the new items.
    this.dialog.addEventListener('close', () => {
      if (this.imported) reloadWithTools();
    });
    this.dialog.addEventListener('cancel', (event) => {
      if (this.running) event.preventDefault(); // the import goes on: wait for its answer
    });
  }

  open(): void {
    if (!this.imported) this.sayUnsaved();
    this.dialog.showModal();
  }

  /** Says "Save your changes first" while the editor has unsaved changes; clears the status otherwise. */
  private sayUnsaved(): void {
    const unsaved = this.options.unsaved() > 0;
    this.say(unsaved ? SAVE_FIRST : '', unsaved);
  }

  /** The chosen file's name without its extension: the new group's title unless one is typed. */
  private fileTitle(): string {
    const name = this.file.files?.[0]?.name ?? '';
    return name.replace(/\.[^.]+$/, '').trim();
  }

  private say(text: string, error = false): void {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }

  private async submit(): Promise<void> {
    if (this.running) return;
    if (this.imported) return this.dialog.close();
    if (this.options.unsaved() > 0) return this.say(SAVE_FIRST, true);
    const file = this.file.files?.[0];
    if (!file) return this.say('Choose a file to import.', true);
    const form = new FormData();
    form.append('file', file);
    if (this.newGroup.checked) {
      const title = this.groupTitle.value.trim();
      if (title === '') {
        this.groupTitle.focus();
        return this.say('Give the new group a title, or untick “Put into a new group”.', true);
      }
      form.append('group_title', title);
    }
    this.running = true;
    this.importButton.disabled = true;
    this.closeButton.disabled = true;
    this.say(`Sending “${file.name}” (${megabytes(file.size)})…`);
    this.progress.value = 0;
    this.progress.hidden = false;
    try {
      const { status, answer } = await send(this.options, form, (sent) => {
        if (sent < 1) {
          this.progress.value = sent;
          this.say(`Sending “${file.name}”: ${megabytes(sent * file.size)} of ${megabytes(file.size)} (${Math.floor(sent * 100)}%)…`);
        } else {
          // Sent: the bar moves without a value while the service reads the file.
          this.progress.removeAttribute('value');
          this.say(`Importing “${file.name}”: reading its items…`);
        }
      });
      if (status !== 200 || !answer.import) return this.say(answer.error ?? 'The file could not be imported.', true);
      this.showSummary(answer);
    } catch {
      this.say('The file could not be sent: the service did not answer. Try again.', true);
    } finally {
      this.running = false;
      this.progress.hidden = true;
      this.importButton.disabled = false;
      this.closeButton.disabled = false;
    }
  }

  private showSummary(answer: ImportAnswer): void {
    const { features, skipped } = answer.import!;
    this.imported = true;
    const format = answer.format ? ` from a ${FORMAT_NAMES[answer.format] ?? answer.format} file` : '';
    const group = answer.new_group ? ` into the new group “${answer.new_group}”` : '';
    this.say('');
    const lines: HTMLElement[] = [element('p', { class: 'import-count' }, `${plural(features, 'item', 'items')} imported${format}${group}.`)];
    // The service lists the first skipped items one by one and counts the rest in a last one ("and 250 more items skipped").
    if (skipped.length > 0) {
      const listed = skipped.filter((item) => !MORE.test(item.reason));
      const counted = skipped.filter((item) => MORE.test(item.reason)).reduce((sum, item) => sum + Number(MORE.exec(item.reason)![1]), 0);
      const shown = listed.slice(0, LISTED_SKIPS);
      const rest = listed.length - shown.length + counted;
      const total = listed.length + counted;
      lines.push(element('p', {}, `${plural(total, 'item', 'items')} skipped${total > shown.length ? ` (the first ${shown.length} listed)` : ''}:`));
      const list = element('ul', { class: 'import-skipped' });
      // Table rows name their row in the reason; other formats get the line.
      for (const item of shown) list.append(element('li', {}, item.line === undefined || /^row \d/.test(item.reason) ? item.reason : `${item.reason} (line ${item.line})`));
      if (rest > 0) list.append(element('li', {}, `… and ${rest.toLocaleString('en')} more.`));
      lines.push(list);
    }
    this.summary.replaceChildren(...lines);
    this.summary.hidden = false;
    this.importButton.textContent = 'Show on the map';
    this.closeButton.hidden = true;
    this.file.disabled = true;
    this.newGroup.disabled = true;
    this.groupTitle.disabled = true;
    this.importButton.focus();
  }
}

/** The toolbar's Import button; its dialog is made the first time it is opened. */
export function importButton(options: ImportOptions): HTMLButtonElement {
  const button = element('button', { type: 'button', 'aria-label': 'Import a file into this map', 'aria-haspopup': 'dialog' }, 'Import');
  let dialog: ImportDialog | undefined;
  button.addEventListener('click', () => (dialog ??= new ImportDialog(options)).open());
  return button;
}
