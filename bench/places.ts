// Place search (lib/places/): what making the index costs the API process, and how long a search
// takes for the worst queries (the target: under 5 ms for any query).
// - The index as the service makes it (`placeIndex()`: a thread): the time until it is ready,
//   how long the main thread's event loop was busy meanwhile and its longest delay (and the same
//   over 3 s of idling before: the machine's own noise), and what the main thread's heap keeps
//   (after a full collection).
// - The same work on the event loop, for reference (what the thread spares it): reading the
//   packages, then making the index, each timed; the index data's size, and what a copy of it
//   costs (structuredClone: more than the thread's hand-over, which moves the arrays).
// - Searches, warmed up: one letter, common prefixes, a region or country after a comma, long
//   strings, non-Latin text, and prefixes of random real names; each query 2,000 times at the
//   API's default limit (10) and at its maximum (50): median, p99, max, in microseconds. One
//   query's very first run (cold code) is reported too.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildPlaceData, loadGazetteer, type PlaceData } from '../lib/places/gazetteer.js';
import { placeIndex } from '../lib/places/index.js';
import { PlaceIndex } from '../lib/places/placeIndex.js';
import { PLACE_LIMIT_DEFAULT, PLACE_LIMIT_MAX } from '../lib/places/placeSearch.js';
import { percentile } from './stats.js';

const RUNS = 2_000;
const WARM_UP = 200;
const MB = 1024 * 1024;

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
// A full collection before each memory reading, so that it counts what is kept, not garbage.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function memory() {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapUsed, arrayBuffers };
}

/**
 * Watches the event loop: how long it was busy (event-loop utilisation's active time: the main
 * thread's own work, whatever the other cores do) and the longest it made a timer wait
 * (perf_hooks' delay, which a busy machine's scheduler lengthens too).
 */
function watchEventLoop() {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const utilisation = performance.eventLoopUtilization();
  return () => {
    const { active } = performance.eventLoopUtilization(utilisation);
    delay.disable();
    return { activeMs: round(active), longestDelayMs: round(delay.max / 1e6) };
  };
}

/** The index made in its thread, with the main thread's event loop watched meanwhile (and as long before, idle: the machine's own noise). */
async function threadedIndex() {
  const idle = watchEventLoop();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const idleLoop = idle();
  const before = memory();
  const watched = watchEventLoop();
  const started = performance.now();
  const index = await placeIndex();
  const readyMs = performance.now() - started;
  const loop = watched();
  const after = memory();
  return {
    index,
    figures: {
      places: index.size,
      readyMs: Math.round(readyMs),
      eventLoopActiveMs: loop.activeMs,
      eventLoopLongestDelayMs: loop.longestDelayMs,
      idle3sEventLoopActiveMs: idleLoop.activeMs,
      idle3sEventLoopLongestDelayMs: idleLoop.longestDelayMs,
      mainThreadHeapMb: round((after.heapUsed - before.heapUsed) / MB),
    },
  };
}

/** What the index's data holds: its typed arrays, and its strings at 2 bytes a character at most. */
function dataSize(data: PlaceData) {
  const arrays = Object.values(data).filter((value): value is ArrayBufferView => ArrayBuffer.isView(value));
  const strings = data.names.length + data.keys.length + [...data.regions, ...data.countries].reduce((sum, area) => sum + area.name.length + area.words.length + area.code.length, 0);
  // What crossing to the main thread costs at most: copying it (the thread transfers the arrays instead).
  const started = performance.now();
  structuredClone(data);
  const cloneMs = performance.now() - started;
  return {
    typedArraysMb: round(arrays.reduce((sum, array) => sum + array.byteLength, 0) / MB),
    stringsMbAtMost: round((2 * strings) / MB),
    entries: data.entryOffset.length,
    structuredCloneMs: round(cloneMs),
  };
}

/** The same work on the event loop (reference: what the thread keeps off it). */
function onTheEventLoop() {
  const before = memory();
  let started = performance.now();
  const { cities, admin1 } = loadGazetteer();
  const readMs = performance.now() - started;
  const loaded = memory();
  started = performance.now();
  const data = buildPlaceData(cities, admin1);
  const buildMs = performance.now() - started;
  return { data, figures: { readPackagesMs: Math.round(readMs), packagesHeapMb: round((loaded.heapUsed - before.heapUsed) / MB), makeIndexMs: Math.round(buildMs), ...dataSize(data) } };
}

const WORST = [
  'a',
  's',
  'e',
  'sa',
  'san',
  'st',
  'new',
  'saint',
  'la',
  'a, a',
  's, s',
  'paris, texas',
  'portland, or',
  'x'.repeat(200),
  'a'.repeat(200),
  'a '.repeat(100),
  'Sankt-Peterburg, Sankt-Peterburg, Russia, Europe, the north of it',
  'Москва',
  'сопиште',
  '東京',
  '🗺️'.repeat(50),
  'zurich',
  'lisb',
];

function timings(index: PlaceIndex, query: string, limit: number) {
  for (let i = 0; i < WARM_UP; i++) index.search(query, limit);
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    index.search(query, limit);
    samples.push(performance.now() - started);
  }
  const { user, system } = process.cpuUsage(cpu);
  const us = (q: number) => Math.round(percentile(samples, q) * 1000);
  // CPU time per search: what a search costs, whatever else the machine's cores were doing.
  return { medianUs: us(0.5), p99Us: us(0.99), maxUs: us(1), cpuUsPerSearch: round((user + system) / RUNS) };
}

/** Prefixes (1–6 letters) of random real names: what people type on the way to a place. */
function typedPrefixes(index: PlaceIndex, count: number): string[] {
  const names = index.search('a', PLACE_LIMIT_MAX).concat(index.search('m', PLACE_LIMIT_MAX), index.search('k', PLACE_LIMIT_MAX), index.search('b', PLACE_LIMIT_MAX));
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  return Array.from({ length: count }, () => {
    const name = names[Math.floor(random() * names.length)]!.name;
    return name.slice(0, 1 + Math.floor(random() * 6));
  });
}

export async function benchPlaces() {
  const { index, figures: build } = await threadedIndex();
  const cold = (() => {
    const started = performance.now();
    index.search('s', PLACE_LIMIT_DEFAULT);
    return { firstSearchMs: round(performance.now() - started, 2) };
  })();
  const reference = onTheEventLoop();
  const same = new PlaceIndex(reference.data).search('lisb', 5);
  if (JSON.stringify(same) !== JSON.stringify(index.search('lisb', 5))) throw new Error('The two indexes disagree');
  const rows = WORST.flatMap((query) =>
    [PLACE_LIMIT_DEFAULT, PLACE_LIMIT_MAX].map((limit) => ({ query: query.length > 24 ? `${query.slice(0, 21)}… (${query.length})` : query, limit, ...timings(index, query, limit) })),
  );
  const typed = typedPrefixes(index, 2_000);
  const cpu = process.cpuUsage();
  const samples = typed.map((query) => {
    const started = performance.now();
    index.search(query, PLACE_LIMIT_DEFAULT);
    return performance.now() - started;
  });
  const { user, system } = process.cpuUsage(cpu);
  const us = (q: number) => Math.round(percentile(samples, q) * 1000);
  const typedRow = { query: `${typed.length} prefixes of real names`, limit: PLACE_LIMIT_DEFAULT, medianUs: us(0.5), p99Us: us(0.99), maxUs: us(1), cpuUsPerSearch: round((user + system) / typed.length) };
  return { build: { ...build, ...cold }, onTheEventLoop: reference.figures, searches: [...rows, typedRow] };
}
