// A point's custom icon: marker/upload from the editor.
import { defineEditorEndpoint } from '../editorEndpoint.js';
import { uploadMediaOf } from './mediaUpload.js';

export const endpoint = defineEditorEndpoint({
  method: 'post',
  path: '/maps/:id/markers',
  summary: "Stores a PNG (`file`) as a custom icon the map's points may use",
  sends: 'multipart',
  answers: "lib/media/fields.ts markerUploadAnswer's { marker_id }",
  handle: uploadMediaOf('marker'),
});
