// A toolbar button that adds an item made from an uploaded image (the Photo tool: a point;
// the Overlay tool: an image overlay): choose a JPEG or PNG → it is uploaded (./mediaUpload.ts)
// → the editor adds the item, as one undoable step. The upload's progress, the outcome and any
// failure are told in the editor's status line; a failed upload adds nothing. One at a time.
import { element } from './element.js';
import { baseName, uploadMedia, type ImageAnswer } from './mediaUpload.js';

/** What a tool of this kind is called and says. */
export interface ImageUploadToolText {
  /** The button's text, its accessible name (starting with that text's word), its data-tool. */
  label: string;
  name: string;
  tool: string;
  /** The hidden file input's accessible name. */
  inputName: string;
  /** What the image is called in the status line ("the photo"). */
  what: string;
  /** The status line once the item is added. */
  added(answer: ImageAnswer, title: string): string;
}

export interface ImageUploadToolOptions {
  imagesUrl: string;
  csrf: string;
  /** Tells how it goes (the editor's status line). */
  report(text: string): void;
  /** Adds the stored image as the new item, as one undoable step. */
  add(answer: ImageAnswer, title: string): void;
  /** The tool started or ended an upload (the editor enables its buttons again). */
  changed(): void;
}

export class ImageUploadTool {
  readonly button: HTMLButtonElement;
  readonly input: HTMLInputElement;
  private uploading = false;

  constructor(
    private readonly text: ImageUploadToolText,
    private readonly options: ImageUploadToolOptions,
  ) {
    this.button = element('button', { type: 'button', 'aria-label': text.name, 'data-tool': text.tool }, text.label);
    this.input = element('input', { type: 'file', accept: 'image/jpeg,image/png,.jpg,.jpeg,.png', hidden: '', 'aria-label': text.inputName });
    this.button.addEventListener('click', () => this.input.click());
    this.input.addEventListener('change', () => {
      const file = this.input.files?.[0];
      this.input.value = '';
      if (file) void this.upload(file);
    });
  }

  /** Whether an image is on its way. */
  busy(): boolean {
    return this.uploading;
  }

  private async upload(file: File): Promise<void> {
    const { options, text } = this;
    this.uploading = true;
    options.changed();
    options.report(`Uploading ${text.what} “${file.name}”…`);
    try {
      const result = await uploadMedia<ImageAnswer>(options.imagesUrl, options.csrf, file);
      if (result.error !== undefined) return options.report(`${text.what[0]!.toUpperCase()}${text.what.slice(1)} was not added: ${result.error}`);
      const title = baseName(file.name);
      options.add(result.answer, title);
      options.report(text.added(result.answer, title));
    } finally {
      this.uploading = false;
      options.changed();
    }
  }
}
