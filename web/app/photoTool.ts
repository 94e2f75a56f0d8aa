// The editor's Photo tool (a toolbar button): choose a photo (JPEG or PNG) → it is uploaded
// (./mediaUpload.ts) → the editor adds a new point with it, where the photo was taken when it
// carries a GPS position, else at the map's centre, titled with the file's name without its
// extension. The upload's progress, the outcome and any failure are told in the editor's status
// line; a failed upload adds nothing. The photo's date is told there too, not stored.
import { element } from './element.js';
import { baseName, uploadMedia, type ImageAnswer } from './mediaUpload.js';

export interface PhotoToolOptions {
  imagesUrl: string;
  csrf: string;
  /** Tells how it goes (the editor's status line). */
  report(text: string): void;
  /** Adds the stored photo as a new point, as one undoable step. */
  add(answer: ImageAnswer, title: string): void;
  /** The tool started or ended an upload (the editor enables its buttons again). */
  changed(): void;
}

export class PhotoTool {
  readonly button = element('button', { type: 'button', 'aria-label': "Add a photo: placed where it was taken, else at the map's centre", 'data-tool': 'photo' }, 'Photo');
  readonly input = element('input', { type: 'file', accept: 'image/jpeg,image/png,.jpg,.jpeg,.png', hidden: '', 'aria-label': 'Photo file' });
  private uploading = false;

  constructor(private readonly options: PhotoToolOptions) {
    this.button.addEventListener('click', () => this.input.click());
    this.input.addEventListener('change', () => {
      const file = this.input.files?.[0];
      this.input.value = '';
      if (file) void this.upload(file);
    });
  }

  /** Whether a photo is on its way (one at a time). */
  busy(): boolean {
    return this.uploading;
  }

  private async upload(file: File): Promise<void> {
    const { options } = this;
    this.uploading = true;
    options.changed();
    options.report(`Uploading the photo “${file.name}”…`);
    try {
      const result = await uploadMedia<ImageAnswer>(options.imagesUrl, options.csrf, file);
      if (result.error !== undefined) return options.report(`The photo was not added: ${result.error}`);
      const title = baseName(file.name);
      options.add(result.answer, title);
      const taken = result.answer.date_str ? ` (taken ${result.answer.date_str})` : '';
      const name = title ? `“${title}”` : 'The photo';
      options.report(
        result.answer.has_gps && result.answer.geometry
          ? `${name} added where it was taken${taken}.`
          : `${name} added at the map's centre${taken}: it carries no GPS position. Drag the point to its place.`,
      );
    } finally {
      this.uploading = false;
      options.changed();
    }
  }
}
