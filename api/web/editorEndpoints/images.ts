// A photo for an item, or the Photo tool's new point: image/upload from the editor.
import { defineEditorEndpoint } from '../editorEndpoint.js';
import { uploadMediaOf } from './mediaUpload.js';

export const endpoint = defineEditorEndpoint({
  method: 'post',
  path: '/maps/:id/images',
  summary: "Stores a JPEG or PNG (`file`) as an image the map's items may use",
  sends: 'multipart',
  answers: 'lib/media/fields.ts ImageUploadAnswer',
  handle: uploadMediaOf('image'),
});
