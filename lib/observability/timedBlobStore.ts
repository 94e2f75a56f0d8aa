// A BlobStore that times every operation of the store it wraps into
// mps_blob_operation_duration_seconds, whichever store that is (local directory, S3): the
// stores themselves know nothing of metrics. createApp and createWorkers wrap the store they
// are given; wrapping twice is a no-op. A Proxy rather than a class listing the methods, so a
// method added to the interface is timed too (labelled with its name) without a change here.
import { Readable } from 'node:stream';
import type { BlobStore } from '../blobs/blobStore.js';
import { blobDuration, secondsSince } from './metrics.js';

const TIMED = Symbol('timed blob store');

/** A stream is timed from its opening to its end (or its failure, or its being closed early). */
function timeStream(operation: string, stream: Readable, start: bigint): Readable {
  let done = false;
  const finish = (outcome: 'ok' | 'error') => {
    if (done) return;
    done = true;
    blobDuration.observe({ operation, outcome }, secondsSince(start));
  };
  stream.once('end', () => finish('ok'));
  stream.once('error', () => finish('error'));
  stream.once('close', () => finish(stream.readableEnded ? 'ok' : 'error'));
  return stream;
}

function timedCall(operation: string, method: (...args: unknown[]) => unknown, target: BlobStore) {
  return (...args: unknown[]): unknown => {
    const start = process.hrtime.bigint();
    let result: unknown;
    try {
      result = method.apply(target, args);
    } catch (error) {
      blobDuration.observe({ operation, outcome: 'error' }, secondsSince(start));
      throw error;
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => {
          blobDuration.observe({ operation, outcome: 'ok' }, secondsSince(start));
          return value;
        },
        (error: unknown) => {
          blobDuration.observe({ operation, outcome: 'error' }, secondsSince(start));
          throw error;
        },
      );
    }
    if (result instanceof Readable) return timeStream(operation, result, start);
    blobDuration.observe({ operation, outcome: 'ok' }, secondsSince(start));
    return result;
  };
}

export function timedBlobStore(store: BlobStore): BlobStore {
  if ((store as BlobStore & { [TIMED]?: true })[TIMED]) return store;
  const methods = new Map<string | symbol, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (property === TIMED) return true;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      if (!methods.has(property)) methods.set(property, timedCall(property, value as (...args: unknown[]) => unknown, target));
      return methods.get(property);
    },
  });
}
