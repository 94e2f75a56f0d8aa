import { z } from 'zod';
import { MEDIA_FILE_TYPES } from '../../../lib/jobContracts.js';
import { defineOperation } from '../../operation.js';
import { MEDIA_LIMITS, uploadMedia } from '../../mediaUpload.js';
import { markerUploadResult } from '../../schemas.js';

/** marker/upload: a PNG point icon, resized for the web map and the static images. */
export const operation = defineOperation(import.meta.url, {
  path: 'marker/upload',
  kind: 'file',
  summary: 'Upload a custom point icon (marker)',
  description:
    'Stores the PNG in the body as a point icon, in sizes that fit 64 and 128 pixel squares (aspect ratio and ' +
    "transparency kept, never enlarged). Use `marker_id` as a feature's `marker_id` property. A marker's longer side may be " +
    'at most 4 times its shorter one; animated PNGs are refused. The sizes are served at `/markers/{marker_id}/{size}.png`, ' +
    'size `s64` or `s128`, to the uploader and to everyone who may see a map using the marker. A marker no map uses is ' +
    `deleted after the same grace period as images. ${MEDIA_LIMITS}`,
  args: z.strictObject({ file_type: z.enum(MEDIA_FILE_TYPES.marker) }),
  result: markerUploadResult,
  idempotencyKey: true,
  example: { args: { file_type: 'png' }, result: { marker_id: 'Mk7Qp2Zr9YcL4xVd' } },
  async handle(ctx, deps, args) {
    const result = await uploadMedia(ctx, deps, 'marker', args);
    if (result.kind !== 'marker') throw new Error('marker/upload answered with an image');
    ctx.body = result.marker;
  },
});
