// The clients of the mixed load (issue 14): `clients` programs, each sending one request after
// another (no pause: a closed loop) for a fixed time, each request an operation drawn from a
// fixed mix by a seeded random source, through the API processes in turn (client i through
// urls[i % urls.length]) with the key of one of a few accounts. Every request's latency is kept
// by operation, and every failure counted: an `error` field, HTTP other than 200, an answer
// without the operation's id field, a lost connection or a request over two minutes.
import sharp from 'sharp';
import { callApi, pointsFile, sendFile, type Answer } from '../test/support/apiRequests.js';
import { seededRandom } from '../test/support/retryingClient.js';
import { percentile } from './stats.js';

/** The operations and their shares of the requests. */
export const MIX = [
  { op: 'map/list', share: 0.4 },
  { op: 'map/get', share: 0.25 },
  { op: 'map/update', share: 0.1 },
  { op: 'map/append', share: 0.1 },
  { op: 'map/upload', share: 0.1 },
  { op: 'image/upload', share: 0.05 },
] as const;

export type Operation = (typeof MIX)[number]['op'];

/** Points in an appended file and in an uploaded one. */
const APPEND_POINTS = 5;
const UPLOAD_POINTS = 10;
/** A request taking longer counts as an error (the spec's processing limit for file operations). */
const REQUEST_TIMEOUT_MS = 120_000;

export interface LoadAccount {
  key: string;
  /** Maps of the account that its clients read, retitle and append to. */
  maps: number[];
}

export interface LoadTarget {
  /** API base URLs (one per API process). */
  urls: string[];
  accounts: LoadAccount[];
}

export interface OperationFigures {
  op: Operation;
  count: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  errors: number;
}

export interface LoadFigures {
  clients: number;
  seconds: number;
  requests: number;
  requests_per_s: number;
  operations: OperationFigures[];
  errors: number;
  /** The first few distinct failures, `op: message`. */
  error_samples: string[];
}

/** Small JPEGs as a phone might send a thumbnail: 480×360, noise so they do not compress to nothing (~100 kB). */
export async function smallJpegs(count: number): Promise<Buffer[]> {
  return Promise.all(
    Array.from({ length: count }, (_, n) =>
      sharp({ create: { width: 480, height: 360, channels: 3, background: { r: 30 * n, g: 120, b: 200 - 30 * n }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
        .jpeg({ quality: 80 })
        .toBuffer(),
    ),
  );
}

/** `perAccount` maps of 20 points for each key, uploaded through the first API. */
export async function seedAccounts(url: string, keys: string[], perAccount: number): Promise<LoadAccount[]> {
  return Promise.all(
    keys.map(async (key, a) => {
      const maps: number[] = [];
      for (let m = 0; m < perAccount; m++) {
        const answer = await sendFile(url, 'map/upload', key, { file_type: 'geojson', visibility: 'private', title: `Load ${a}.${m}` }, pointsFile(`seed-${a}-${m}`, 20));
        if (typeof answer.id !== 'number') throw new Error(`seeding a map failed: ${JSON.stringify(answer)}`);
        maps.push(answer.id);
      }
      return { key, maps };
    }),
  );
}

/** The operation for a draw in [0, 1). */
function operationOf(draw: number): Operation {
  let sum = 0;
  for (const { op, share } of MIX) {
    sum += share;
    if (draw < sum) return op;
  }
  return MIX[0].op;
}

/** Sends one request of `op`; resolves with the answer or throws (transport, HTTP, timeout). */
function send(op: Operation, url: string, account: LoadAccount, pick: () => number, tag: string, jpegs: Buffer[]): Promise<Answer> {
  const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const mapId = account.maps[Math.floor(pick() * account.maps.length)]!;
  switch (op) {
    case 'map/list':
      return callApi(url, op, account.key, {}, { signal });
    case 'map/get':
      return callApi(url, op, account.key, { map_id: mapId }, { signal });
    case 'map/update':
      return callApi(url, op, account.key, { map_id: mapId, title: `Retitled ${tag}` }, { signal });
    case 'map/append':
      return sendFile(url, op, account.key, { map_id: mapId, file_type: 'geojson' }, pointsFile(tag, APPEND_POINTS), { signal });
    case 'map/upload':
      return sendFile(url, op, account.key, { file_type: 'geojson', visibility: 'private', title: `Uploaded ${tag}` }, pointsFile(tag, UPLOAD_POINTS), { signal });
    case 'image/upload':
      return sendFile(url, op, account.key, { file_type: 'jpg' }, jpegs[Math.floor(pick() * jpegs.length)]!, { signal });
  }
}

/** What is wrong with a successful-looking answer of `op` (undefined: nothing). */
function problemOf(op: Operation, answer: Answer): string | undefined {
  if (answer.error !== undefined) return `${answer.error_code ?? ''} ${String(answer.error)}`.trim();
  const ok =
    op === 'map/list' ? Array.isArray(answer.owner)
    : op === 'map/get' ? typeof answer.id === 'number' && typeof answer.geojson === 'object'
    : op === 'image/upload' ? typeof answer.image_id === 'string'
    : op === 'map/append' ? typeof answer.id === 'number' && answer.import?.features === APPEND_POINTS
    : op === 'map/upload' ? typeof answer.id === 'number' && answer.import?.features === UPLOAD_POINTS
    : typeof answer.id === 'number';
  return ok ? undefined : `unexpected answer ${JSON.stringify(answer).slice(0, 200)}`;
}

export async function runMixedLoad(target: LoadTarget, options: { clients: number; seconds: number; seed?: number }): Promise<LoadFigures> {
  const jpegs = await smallJpegs(4);
  const samples = new Map<Operation, number[]>(MIX.map(({ op }) => [op, []]));
  const errors = new Map<Operation, number>(MIX.map(({ op }) => [op, 0]));
  const errorSamples = new Set<string>();
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const clients = Array.from({ length: options.clients }, async (_, client) => {
    const random = seededRandom((options.seed ?? 14) * 1000 + client);
    const url = target.urls[client % target.urls.length]!;
    const account = target.accounts[client % target.accounts.length]!;
    for (let n = 0; performance.now() < deadline; n++) {
      const op = operationOf(random());
      const begun = performance.now();
      let problem: string | undefined;
      try {
        problem = problemOf(op, await send(op, url, account, random, `c${client}-${n}`, jpegs));
      } catch (error) {
        problem = (error as Error).message;
      }
      samples.get(op)!.push(performance.now() - begun);
      if (problem !== undefined) {
        errors.set(op, errors.get(op)! + 1);
        if (errorSamples.size < 10) errorSamples.add(`${op}: ${problem.slice(0, 300)}`);
      }
    }
  });
  await Promise.all(clients);
  const seconds = (performance.now() - started) / 1000;
  const round = (ms: number) => +ms.toFixed(1);
  const operations = MIX.map(({ op }) => {
    const times = samples.get(op)!;
    return { op, count: times.length, p50_ms: round(percentile(times, 0.5)), p99_ms: round(percentile(times, 0.99)), max_ms: round(Math.max(...times)), errors: errors.get(op)! };
  });
  const requests = operations.reduce((sum, o) => sum + o.count, 0);
  return {
    clients: options.clients,
    seconds: +seconds.toFixed(1),
    requests,
    requests_per_s: +(requests / seconds).toFixed(1),
    operations,
    errors: operations.reduce((sum, o) => sum + o.errors, 0),
    error_samples: [...errorSamples],
  };
}
