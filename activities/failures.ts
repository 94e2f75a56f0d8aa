// Bad input is final: an AppError raised inside an activity, and a database refusal of the data
// itself, become a non-retryable failure whose type is the error code, so the workflow and then
// the API can answer with it. Anything else (a dropped connection, a restarting database) is
// retried by the activity's retry policy.
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { DataRefused, MediaNotLinkable, TimeLimitReached } from '../db/errors.js';
import { AppError } from '../lib/errors.js';
import { mapTooLarge } from '../lib/geojson/sizeLimits.js';
import { mediaNotLinkable } from '../lib/media/errors.js';

/** What a database refusal means for a file request. */
function explained(error: unknown): unknown {
  if (error instanceof MediaNotLinkable) return mediaNotLinkable(error.kind, error.mediaId);
  if (error instanceof DataRefused) {
    return error.reason === 'too_large'
      ? mapTooLarge()
      : new AppError('invalid_file', 'The content of the file could not be stored: it holds text or numbers the database refuses.');
  }
  if (error instanceof TimeLimitReached) {
    return new AppError('processing_timeout', 'Processing the file took longer than the time limit; the map was not changed.');
  }
  return error;
}

export async function failingOnBadInput<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (caught) {
    const error = explained(caught);
    // Bad input is an expected outcome, not a fault of the service: BENIGN keeps it out of the
    // worker's warnings (Temporal logs benign failures at debug level).
    if (error instanceof AppError) {
      throw ApplicationFailure.create({ message: error.message, type: error.code, nonRetryable: true, category: ApplicationFailureCategory.BENIGN });
    }
    throw error;
  }
}
