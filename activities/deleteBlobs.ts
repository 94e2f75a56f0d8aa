import type { ActivityDeps } from './deps.js';

/** Removes the request's temporary blobs (the upload and its parsed form) once a job has ended. */
export function makeDeleteBlobs({ blobs }: ActivityDeps) {
  return async function deleteBlobs(input: { keys: string[] }): Promise<void> {
    await Promise.all(input.keys.map((key) => blobs.delete(key)));
  };
}
