// The map-image workflow's update and signal, in their own module so the API can import it without the
// workflow's code.
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import { MAP_SAVED_SIGNAL, REFRESH_IMAGE_UPDATE, type RefreshImageAnswer } from '../lib/jobContracts.js';

/** map/refresh_image: renders now and answers when done, or answers at once during the cool-down. */
export const refreshImageUpdate = defineUpdate<RefreshImageAnswer, []>(REFRESH_IMAGE_UPDATE);

/** A web save: the image is rendered at once, or at the end of the cool-down (with any other request then). */
export const mapSavedSignal = defineSignal<[]>(MAP_SAVED_SIGNAL);
