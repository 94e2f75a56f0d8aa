// The editor's Overlay tool (a toolbar button; issue 27): choose an image (JPEG or PNG) → it is
// uploaded as the Photo tool's photos are (./mediaUpload.ts) → the editor adds a new image overlay
// in the middle of the view at the image's aspect ratio (./overlayGeometry.ts), selected; its
// corners, place, size, turn and opacity are then adjusted in the item panel (./overlayPanel.ts)
// and by the corner handles on the map. Progress, outcome and failures are told in the status line.
import { element } from './element.js';
import { baseName, uploadMedia, type ImageAnswer } from './mediaUpload.js';

export interface OverlayToolOptions {
  imagesUrl: string;
  csrf: string;
  report(text: string): void;
  /** Adds the stored image as a new overlay, as one undoable step. */
  add(answer: ImageAnswer, title: string): void;
  /** An upload started or ended (the editor enables its buttons again). */
  changed(): void;
}

export class OverlayTool {
  readonly button = element('button', { type: 'button', 'aria-label': 'Add an image overlay: a scanned map or a plan laid on the map', 'data-tool': 'overlay' }, 'Overlay');
  readonly input = element('input', { type: 'file', accept: 'image/jpeg,image/png,.jpg,.jpeg,.png', hidden: '', 'aria-label': 'Overlay image file' });
  private uploading = false;

  constructor(private readonly options: OverlayToolOptions) {
    this.button.addEventListener('click', () => this.input.click());
    this.input.addEventListener('change', () => {
      const file = this.input.files?.[0];
      this.input.value = '';
      if (file) void this.upload(file);
    });
  }

  busy(): boolean {
    return this.uploading;
  }

  private async upload(file: File): Promise<void> {
    const { options } = this;
    this.uploading = true;
    options.changed();
    options.report(`Uploading the overlay image “${file.name}”…`);
    try {
      const result = await uploadMedia<ImageAnswer>(options.imagesUrl, options.csrf, file);
      if (result.error !== undefined) return options.report(`The overlay was not added: ${result.error}`);
      const title = baseName(file.name);
      options.add(result.answer, title);
      options.report(`${title ? `“${title}”` : 'The image'} added as an overlay in the middle of the map: drag its corners, or move, scale and turn it in the panel.`);
    } finally {
      this.uploading = false;
      options.changed();
    }
  }
}
