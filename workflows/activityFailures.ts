// Activity failures reach the API as workflow failures whose type is an error code.
import { ApplicationFailureCategory } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { isErrorCode } from '../lib/errors.js';
import { processingTimeout } from './processingLimit.js';

/** A refusal of the request's input: an expected outcome (BENIGN; workers/logger.ts knows this function's name). */
export function badInput(message: string, type: string): ApplicationFailure {
  return ApplicationFailure.create({ message, type, nonRetryable: true, category: ApplicationFailureCategory.BENIGN });
}

/**
 * The failure the workflow ends with: an activity's bad-input failure as is (a timeout, from the
 * timer or from the write's own deadline, always with the same message); anything else is
 * internal_error.
 */
export function toWorkflowFailure(error: unknown, limitMs: number | null): ApplicationFailure {
  let failure: ApplicationFailure | undefined;
  if (error instanceof ApplicationFailure) failure = error;
  else if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && isErrorCode(error.cause.type)) {
    failure = badInput(error.cause.message, error.cause.type);
  }
  if (failure?.type === 'processing_timeout' && limitMs !== null) return processingTimeout(limitMs);
  return failure ?? ApplicationFailure.nonRetryable('The file could not be processed because of an internal error.', 'internal_error');
}
