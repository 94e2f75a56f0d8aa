// Import throughput of the `maps` workers (issue 14's scaling factor): a fixed batch of imports —
// map/append of the same GeoJSON file of `points` points — sent by `senders` clients at once,
// each to an empty map of its own (made before the clock starts, so appends to one map never
// wait on each other), through the API processes in turn. Timed from the first request to the
// last answer; every answer must say it imported all the points.
import { pointsFile, sendFile } from '../test/support/apiRequests.js';
import { percentile } from './stats.js';

export interface ImportBatchOptions {
  urls: string[];
  key: string;
  imports: number;
  senders: number;
  points: number;
}

export interface ImportBatchFigures {
  imports: number;
  senders: number;
  points_each: number;
  seconds: number;
  imports_per_s: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  error_samples: string[];
}

export async function importBatch(options: ImportBatchOptions): Promise<ImportBatchFigures> {
  const file = pointsFile('import', options.points);
  const targets: number[] = [];
  for (let s = 0; s < options.senders; s++) {
    const answer = await sendFile(options.urls[0]!, 'map/upload', options.key, { file_type: 'empty', visibility: 'private', title: `Imports ${s}` });
    if (typeof answer.id !== 'number') throw new Error(`an empty map for the imports failed: ${JSON.stringify(answer)}`);
    targets.push(answer.id);
  }
  const times: number[] = [];
  const problems: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    targets.map(async (mapId) => {
      for (let i = next++; i < options.imports; i = next++) {
        const begun = performance.now();
        try {
          const answer = await sendFile(options.urls[i % options.urls.length]!, 'map/append', options.key, { map_id: mapId, file_type: 'geojson' }, file, {
            signal: AbortSignal.timeout(120_000),
          });
          if (answer.error !== undefined || answer.import?.features !== options.points) problems.push(JSON.stringify(answer).slice(0, 300));
        } catch (error) {
          problems.push((error as Error).message.slice(0, 300));
        }
        times.push(performance.now() - begun);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    imports: options.imports,
    senders: options.senders,
    points_each: options.points,
    seconds: +seconds.toFixed(2),
    imports_per_s: +(options.imports / seconds).toFixed(2),
    p50_ms: +percentile(times, 0.5).toFixed(0),
    p99_ms: +percentile(times, 0.99).toFixed(0),
    errors: problems.length,
    error_samples: [...new Set(problems)].slice(0, 5),
  };
}
