// Activity failures reach the API as workflow failures whose type is an error code.
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { isErrorCode } from '../lib/errors.js';

/** The failure the workflow ends with: an activity's bad-input failure as is; anything else is internal_error. */
export function toWorkflowFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && isErrorCode(error.cause.type)) {
    return ApplicationFailure.nonRetryable(error.cause.message, error.cause.type);
  }
  return ApplicationFailure.nonRetryable('The file could not be processed because of an internal error.', 'internal_error');
}
