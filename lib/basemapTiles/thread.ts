// A basemap tile thread: cuts and encodes every tile of one resolution (workerData.resolution)
// and posts them back as one buffer, then ends, so the Natural Earth data and geojson-vt's
// indexes (about 250 MB while 1:10m is cut) go with the thread instead of staying in the
// process that serves the tiles. Loaded through thread.bootstrap.mjs.
import { parentPort, workerData } from 'node:worker_threads';
import type { Resolution } from '../naturalEarth.js';
import { encodePyramid } from './pyramid.js';

const pyramid = encodePyramid((workerData as { resolution: Resolution }).resolution);
parentPort!.postMessage(pyramid, [pyramid.bytes.buffer as ArrayBuffer, pyramid.offsets.buffer as ArrayBuffer]);
