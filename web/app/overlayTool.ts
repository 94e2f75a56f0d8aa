// The editor's Overlay tool (./imageUploadTool.ts; issue 27): the uploaded image becomes a new
// image overlay in the middle of the view at the image's aspect ratio (./overlayGeometry.ts),
// selected; its corners, place, size, turn and opacity are then adjusted in the item panel
// (./overlayPanel.ts) and by the corner handles on the map.
import { ImageUploadTool, type ImageUploadToolOptions } from './imageUploadTool.js';

export const overlayTool = (options: ImageUploadToolOptions): ImageUploadTool =>
  new ImageUploadTool(
    {
      label: 'Overlay',
      name: 'Add an image overlay: a scanned map or a plan laid on the map',
      tool: 'overlay',
      inputName: 'Overlay image file',
      what: 'the overlay image',
      added: (_answer, title) =>
        `${title ? `“${title}”` : 'The image'} added as an overlay in the middle of the map: drag its corners, or move, scale and turn it in the panel.`,
    },
    options,
  );
