// Bad input is final: an AppError raised inside an activity becomes a non-retryable failure
// whose type is the error code, so the workflow and then the API can answer with it.
import { ApplicationFailure } from '@temporalio/common';
import { AppError } from '../lib/errors.js';

export async function failingOnBadInput<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw ApplicationFailure.nonRetryable(error.message, error.code);
    throw error;
  }
}
