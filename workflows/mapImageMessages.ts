// The messages of the map-image workflow, in their own module so the API can import them
// without the workflow's code.
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import { REFRESH_IMAGE_UPDATE, REQUEST_IMAGE_SIGNAL, type RefreshImageAnswer } from '../lib/jobContracts.js';

/** map/refresh_image: renders now and answers when done, or answers at once during the cool-down. */
export const refreshImageUpdate = defineUpdate<RefreshImageAnswer, []>(REFRESH_IMAGE_UPDATE);
/** A render asked for without waiting (web saves): coalesced like the update. */
export const requestImageSignal = defineSignal<[]>(REQUEST_IMAGE_SIGNAL);
