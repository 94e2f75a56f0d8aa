// The editor's Photo tool (./imageUploadTool.ts): the uploaded photo becomes a new point, where
// the photo was taken when it carries a GPS position, else at the map's centre, titled with the
// file's name without its extension. The photo's date is told in the status line, not stored.
import { ImageUploadTool, type ImageUploadToolOptions } from './imageUploadTool.js';

export const photoTool = (options: ImageUploadToolOptions): ImageUploadTool =>
  new ImageUploadTool(
    {
      label: 'Photo',
      name: "Add a photo: placed where it was taken, else at the map's centre",
      tool: 'photo',
      inputName: 'Photo file',
      what: 'the photo',
      added(answer, title) {
        const taken = answer.date_str ? ` (taken ${answer.date_str})` : '';
        const name = title ? `“${title}”` : 'The photo';
        return answer.has_gps && answer.geometry
          ? `${name} added where it was taken${taken}.`
          : `${name} added at the map's centre${taken}: it carries no GPS position. Drag the point to its place.`;
      },
    },
    options,
  );
