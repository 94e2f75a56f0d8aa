// The place index's thread: reads the gazetteer packages, makes the index's data and posts it
// back (its typed arrays transferred, not copied), then ends, so the packages' 135,000 decoded
// objects (44 MB) go with the thread. Loaded through thread.bootstrap.mjs.
import { parentPort } from 'node:worker_threads';
import { buildPlaceData, loadGazetteer, transferablesOf } from './gazetteer.js';

const { cities, admin1 } = loadGazetteer();
const data = buildPlaceData(cities, admin1);
parentPort!.postMessage(data, transferablesOf(data));
