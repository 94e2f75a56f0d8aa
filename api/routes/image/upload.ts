import { z } from 'zod';
import { MEDIA_FILE_TYPES } from '../../../lib/jobContracts.js';
import { defineOperation } from '../../operation.js';
import { MEDIA_LIMITS, uploadMedia } from '../../mediaUpload.js';
import { imageUploadResult } from '../../schemas.js';

/** image/upload: a JPEG or PNG photo, stored in its responsive sizes. */
export const operation = defineOperation(import.meta.url, {
  path: 'image/upload',
  kind: 'file',
  summary: 'Upload an image for use in maps',
  description:
    'Stores the JPEG or PNG in the body, turned upright by its EXIF orientation, in sizes that fit 2048, 1024, 512 and ' +
    '256 pixel squares (never enlarged; JPEG, or PNG when the image has transparency; no metadata kept). The answer fills ' +
    "a feature's `image` property: `id` from `image_id`, `w` from `width`, `h` from `height`, `tip_color`, `avg_color` " +
    '(map/update also fills them from an `image` that has its `id` alone). A map may use images of its owner and editors. ' +
    'The stored sizes are served at `/images/{image_id}/{size}.jpg` (or `.png`), size `s2048`, `s1024`, `s512` or `s256`, ' +
    'to the uploader and to everyone who may see a map using the image. An image no map uses is deleted after a grace ' +
    `period (24 hours by default) from its upload or from when the last map let go of it. ${MEDIA_LIMITS}`,
  args: z.strictObject({ file_type: z.enum(MEDIA_FILE_TYPES.image) }),
  result: imageUploadResult,
  idempotencyKey: true,
  example: {
    args: { file_type: 'jpg' },
    result: {
      image_id: 'Xq3v9LmP2sT7wKbN',
      width: 4032,
      height: 3024,
      tip_color: '#4a5d3f',
      avg_color: '#7b8c9a',
      has_gps: true,
      geometry: { type: 'Point', coordinates: [2.2945, 48.8584] },
      date_str: '2024-06-01 14:03',
      date_iso: '2024-06-01T14:03:27+02:00',
    },
  },
  async handle(ctx, deps, args) {
    const result = await uploadMedia(ctx, deps, 'image', args);
    if (result.kind !== 'image') throw new Error('image/upload answered with a marker');
    ctx.body = result.image;
  },
});
