// The map-image workflow's update, in its own module so the API can import it without the
// workflow's code.
import { defineUpdate } from '@temporalio/workflow';
import { REFRESH_IMAGE_UPDATE, type RefreshImageAnswer } from '../lib/jobContracts.js';

/** map/refresh_image: renders now and answers when done, or answers at once during the cool-down. */
export const refreshImageUpdate = defineUpdate<RefreshImageAnswer, []>(REFRESH_IMAGE_UPDATE);
