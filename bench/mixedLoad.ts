// Issue 14's measurement (`npm run bench -- load`): a mixed load from 50 clients (bench/loadClients.ts:
// map/list, map/get, map/update, small map/append and map/upload, small image/upload) for
// LOAD_SECONDS (60 by default) on
// - the scaled-out shape, started with the fault tests' harness (test/support/deployment.ts): two
//   API processes, `maps` workers, one worker for the `media` and `render` queues, a private
//   PostgreSQL cluster and a Temporal dev server; rate limits off. Around the load, the import
//   throughput (bench/importThroughput.ts) with one `maps` worker, two, and one again (the
//   scaling factor against the mean of the two one-worker runs, which brackets the machine's drift);
// - the embedded one-process default (`npm start`'s process, bench/service.ts), on PGlite (what
//   `npm start` runs without DATABASE_URL) and on PostgreSQL (the machine's cluster on 5432),
//   LOAD_EMBEDDED=pglite,pg choosing which.
// p50 and p99 per operation and every error; results in bench/out/mixed-load.json.
// `npm run bench -- load scaled` (or `embedded`) runs one half.
import fs from 'node:fs';
import os from 'node:os';
import { startDeployment } from '../test/support/deployment.js';
import { importBatch, type ImportBatchFigures } from './importThroughput.js';
import { runMixedLoad, seedAccounts, type LoadFigures } from './loadClients.js';
import { startBenchService, type BenchDatabase } from './service.js';

const CLIENTS = 50;
const SECONDS = Number(process.env.LOAD_SECONDS || 60);
const ACCOUNTS = 10;
const MAPS_PER_ACCOUNT = 3;
/** The import batch: LOAD_IMPORTS appends of IMPORT_POINTS points, 8 at once. */
const IMPORTS = Number(process.env.LOAD_IMPORTS || 100);
const IMPORT_POINTS = 2_000;
const IMPORT_SENDERS = 8;

/** The 1-minute load average over the machine's cores, at a phase's start and end. */
interface MachineLoad {
  load_before: number;
  load_after: number;
}

export interface ShapeLoad extends MachineLoad {
  /** Short, for the tables. */
  name: string;
  shape: string;
  load: LoadFigures;
}

export interface MixedLoadResults {
  date: string;
  cores: number;
  clients: number;
  seconds: number;
  scaledOut?: ShapeLoad & { imports: Record<string, ImportBatchFigures & MachineLoad>; scaling_factor: number };
  embedded: ShapeLoad[];
  /** Errors of every load and import batch together: must be 0. */
  errors: number;
}

const loadAverage = () => +os.loadavg()[0]!.toFixed(1);

async function measured<T>(fn: () => Promise<T>): Promise<T & MachineLoad> {
  const load_before = loadAverage();
  const result = await fn();
  return { ...result, load_before, load_after: loadAverage() };
}

function printLoad(title: string, figures: LoadFigures): void {
  console.log(`${title}: ${figures.requests} requests in ${figures.seconds} s (${figures.requests_per_s}/s), errors ${figures.errors}`);
  console.table(figures.operations);
  for (const sample of figures.error_samples) console.log(`  error: ${sample}`);
}

/** CPU time of a process so far, in clock ticks (Linux: utime + stime of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resolves once a process has used under 5% of a core for two seconds in a row (at most three
 * minutes). Waiting for Temporal to run no workflow would not do: each map's `mapImage` workflow
 * stays open for 30 minutes after its last render (workflows/mapImage.ts).
 */
async function whenQuiet(pid: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  let quiet = 0;
  let last = cpuTicks(pid);
  while (quiet < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = cpuTicks(pid);
    quiet = now - last < 5 ? quiet + 1 : 0; // 100 ticks a second
    last = now;
  }
}

async function scaledOut(): Promise<NonNullable<MixedLoadResults['scaledOut']>> {
  const deployment = await startDeployment();
  try {
    console.log('Starting two API processes, a media/render worker and a maps worker …');
    const apis = await Promise.all([deployment.startApi('api-1'), deployment.startApi('api-2')]);
    const urls = apis.map((api) => api.url);
    const [mediaRender] = await Promise.all([deployment.startWorker('media-render', { WORKER_QUEUES: 'media,render' }), deployment.startWorker('maps-1', { WORKER_QUEUES: 'maps' })]);
    const users = await Promise.all(Array.from({ length: ACCOUNTS + 1 }, () => deployment.newUser()));
    const importer = users.pop()!.key;
    const accounts = await seedAccounts(urls[0]!, users.map((u) => u.key), MAPS_PER_ACCOUNT);

    const batch = async (label: string) => {
      // A warm-up of a few imports (the worker's first workflows and parser threads), then the batch.
      await importBatch({ urls, key: importer, imports: IMPORT_SENDERS, senders: IMPORT_SENDERS, points: IMPORT_POINTS });
      const figures = await measured(() => importBatch({ urls, key: importer, imports: IMPORTS, senders: IMPORT_SENDERS, points: IMPORT_POINTS }));
      console.log(`Imports, ${label}: ${figures.imports} in ${figures.seconds} s = ${figures.imports_per_s}/s (p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms, errors ${figures.errors}, load ${figures.load_before}→${figures.load_after})`);
      for (const sample of figures.error_samples) console.log(`  error: ${sample}`);
      return figures;
    };
    const one = await batch('one maps worker');
    const second = await deployment.startWorker('maps-2', { WORKER_QUEUES: 'maps' });
    const two = await batch('two maps workers');

    console.log(`Mixed load, scaled out (2 API, 2 maps workers, 1 media/render worker): ${CLIENTS} clients for ${SECONDS} s …`);
    const load = await measured(async () => ({ load: await runMixedLoad({ urls, accounts }, { clients: CLIENTS, seconds: SECONDS }) }));
    printLoad('scaled out', load.load);

    await second.child.stop();
    // The load leaves static images to draw (one per upload, the render worker one at a time):
    // the batch waits until that worker is quiet, or it would share the cores with them.
    await whenQuiet(mediaRender.child.pid);
    const oneAgain = await batch('one maps worker again');
    const scaling = two.imports_per_s / ((one.imports_per_s + oneAgain.imports_per_s) / 2);
    console.log(`Scaling factor, two maps workers against one: ${scaling.toFixed(2)}`);
    return {
      name: 'scaled out',
      shape: '2 API processes, 2 maps workers, 1 media+render worker, private PostgreSQL, Temporal dev server',
      ...load,
      imports: { one_maps_worker: one, two_maps_workers: two, one_maps_worker_again: oneAgain },
      scaling_factor: +scaling.toFixed(2),
    };
  } catch (error) {
    console.error(deployment.output().split('\n').slice(-80).join('\n'));
    throw error;
  } finally {
    await deployment.stop();
  }
}

async function embedded(kind: BenchDatabase): Promise<ShapeLoad> {
  const service = await startBenchService(kind);
  try {
    const keys = [service.key];
    for (let a = 1; a < ACCOUNTS; a++) keys.push(await service.newAccount(`load${a}`));
    const accounts = await seedAccounts(service.base, keys, MAPS_PER_ACCOUNT);
    console.log(`Mixed load, embedded (npm start) on ${kind}: ${CLIENTS} clients for ${SECONDS} s …`);
    const load = await measured(async () => ({ load: await runMixedLoad({ urls: [service.base], accounts }, { clients: CLIENTS, seconds: SECONDS }) }));
    printLoad(`embedded on ${kind}`, load.load);
    return { name: `embedded, ${kind === 'pg' ? 'PostgreSQL' : 'PGlite'}`, shape: `one process (npm start) on ${kind === 'pg' ? 'PostgreSQL' : 'PGlite'}`, ...load };
  } finally {
    await service.stop();
  }
}

export async function benchMixedLoad(): Promise<MixedLoadResults> {
  const part = process.argv[3];
  const kinds = (process.env.LOAD_EMBEDDED ?? 'pglite,pg').split(',').filter((k): k is BenchDatabase => k === 'pg' || k === 'pglite');
  const results: MixedLoadResults = { date: new Date().toISOString(), cores: os.availableParallelism(), clients: CLIENTS, seconds: SECONDS, embedded: [], errors: 0 };
  if (part !== 'embedded') results.scaledOut = await scaledOut();
  if (part !== 'scaled') for (const kind of kinds) results.embedded.push(await embedded(kind));

  const loads = [results.scaledOut, ...results.embedded].filter((s) => s !== undefined);
  results.errors =
    loads.reduce((sum, s) => sum + s.load.errors, 0) + Object.values(results.scaledOut?.imports ?? {}).reduce((sum, batch) => sum + batch.errors, 0);
  console.log('\np50 / p99 per operation (ms):');
  console.table(
    loads[0]?.load.operations.map(({ op }) =>
      Object.fromEntries([
        ['op', op],
        ...loads.map((s) => {
          const o = s.load.operations.find((x) => x.op === op)!;
          return [s.name, `${o.p50_ms} / ${o.p99_ms} (${o.count})`];
        }),
      ]),
    ),
  );
  for (const s of loads) console.log(`${s.shape}: ${s.load.requests_per_s} requests/s, load average ${s.load_before}→${s.load_after} on ${results.cores} cores`);
  if (results.scaledOut) {
    const i = results.scaledOut.imports;
    console.log(`Imports/s: one maps worker ${i.one_maps_worker!.imports_per_s}, two ${i.two_maps_workers!.imports_per_s}, one again ${i.one_maps_worker_again!.imports_per_s}: scaling factor ${results.scaledOut.scaling_factor}`);
  }
  console.log(`\nERRORS: ${results.errors}\n`);
  fs.mkdirSync('bench/out', { recursive: true });
  fs.writeFileSync('bench/out/mixed-load.json', JSON.stringify(results, null, 2));
  return results;
}
