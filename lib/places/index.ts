// Place search (API place/search, the site's GET /places/search): an offline gazetteer, no
// geocoding service. The index is made in a thread (./thread.ts: reading the packages and sorting
// took 2–3 s of CPU on a busy 2-core machine, and up to 140 MB that leave with the thread) when the API starts
// (`warmPlaceIndex`) or at the first search, whichever comes first; a search meanwhile waits for
// it. What the main thread keeps: a few strings and typed arrays (bench/README.md, `npm run
// bench -- places`, measures both).
import { Worker } from 'node:worker_threads';
import { errorFields, log } from '../observability/logger.js';
import type { PlaceData } from './gazetteer.js';
import { PlaceIndex } from './placeIndex.js';
import type { Place } from './placeSearch.js';

/** The thread peaks at about 140 MB (the packages' objects and the sort); a limit keeps a fault from taking the process with it. */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 };

let index: Promise<PlaceIndex> | undefined;

function buildInThread(): Promise<PlaceData> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./thread.bootstrap.mjs', import.meta.url), { resourceLimits: THREAD_LIMITS });
    // A process that is stopping does not wait for the index.
    worker.unref();
    worker.once('message', resolve);
    worker.once('error', reject);
    // After the message this does nothing; before it, the thread ended without the data.
    worker.once('exit', (code) => reject(new Error(`The place index thread ended with code ${code} before the index was made.`)));
  });
}

/** The index, made once; a failed attempt is forgotten so the next search tries again. */
export function placeIndex(): Promise<PlaceIndex> {
  if (!index) {
    const made = buildInThread().then((data) => new PlaceIndex(data));
    made.catch(() => {
      if (index === made) index = undefined;
    });
    index = made;
  }
  return index;
}

/** Starts making the index now (the API's start), so that the first search finds it ready. */
export function warmPlaceIndex(): void {
  placeIndex().catch((error: unknown) => log.error({ err: errorFields(error) }, 'The place index could not be made; the next place search tries again'));
}

export async function searchPlaces(query: string, limit: number): Promise<Place[]> {
  return (await placeIndex()).search(query, limit);
}
