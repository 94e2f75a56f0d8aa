// Helpers shared by the format parser tests.
import { expect } from 'vitest';
import { AppError } from '../../lib/errors.js';
import type { ParsedFile } from '../../lib/formats/types.js';
import type { MapFeature } from '../../lib/geojson/model.js';

export const bytesOf = (input: Uint8Array | string): Uint8Array =>
  typeof input === 'string' ? new TextEncoder().encode(input) : input;

/** The AppError `run` throws; fails the test when it throws something else or nothing. */
export function errorOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a failure');
}

export const byTitle = (result: ParsedFile, title: string): MapFeature => {
  const feature = result.document.features.find((each) => each.properties.title === title);
  if (feature === undefined) throw new Error(`no feature titled ${title}`);
  return feature;
};
