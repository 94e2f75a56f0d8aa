// The per-feature API on a 200,000-feature map against a 1,000-feature one (issue 28): a page of
// feature/list at the start, the middle and the end of the map (by its cursor), a page of a small
// area (bbox) and of a group, feature/get of 100 ids and map/changes after a save; then the whole
// big map read page by page against one map/get of it. Through the embedded service on
// PostgreSQL, over HTTP as a client calls it.
import { performance } from 'node:perf_hooks';
import { startBenchService } from './service.js';
import { summarize } from './stats.js';

const BIG = 200_000;
const SMALL = 1_000;
const PAGE = 1_000;
const RUNS = 9;

const pointsDocument = (count: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    groups: [{ id: 1, title: 'Odd' }, { id: 2, title: 'Even' }],
    features: Array.from({ length: count }, (_, i) => ({
      type: 'Feature',
      id: i + 1,
      geometry: { type: 'Point', coordinates: [-10 + (i % 500) * 0.04, 35 + Math.floor(i / 500) * 0.05] },
      properties: { title: `Point ${i + 1}`, description: 'A point of the benchmark map.', group: (i % 2) + 1 },
    })),
  });

export async function benchFeaturePages() {
  const service = await startBenchService('pg', { MAX_UPLOAD_MB: '64' });
  const call = async (op: string, body: unknown) => {
    const response = await fetch(`${service.base}/api/1/${op}`, {
      method: 'POST',
      headers: { authorization: `Token ${service.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (answer.error) throw new Error(`${op}: ${String(answer.error)}`);
    return answer;
  };
  const ms = async (fn: () => Promise<unknown>, runs = RUNS) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      await fn();
      samples.push(performance.now() - started);
    }
    return +summarize(samples).median.toFixed(1);
  };
  try {
    const maps: Record<string, number> = {};
    for (const [name, count] of [['small', SMALL], ['big', BIG]] as const) {
      maps[name] = (await service.send('map/upload', { file_type: 'geojson', visibility: 'private', title: name }, pointsDocument(count))).id as number;
    }
    const rows: Record<string, unknown>[] = [];
    for (const [name, mapId] of Object.entries(maps)) {
      const count = name === 'big' ? BIG : SMALL;
      // Cursors into the middle and the end: a page read from the start, followed.
      const cursorAt = async (skip: number) => {
        let cursor: string | null = null;
        for (let read = 0; read < skip; read += 10_000) cursor = (await call('feature/list', { map_id: mapId, limit: Math.min(10_000, skip - read), ...(cursor ? { cursor } : {}) })).next_cursor as string;
        return cursor;
      };
      const middle = await cursorAt(count / 2);
      const end = await cursorAt(count - PAGE);
      rows.push({
        map: `${count.toLocaleString('en')} features`,
        firstPageMs: await ms(() => call('feature/list', { map_id: mapId, limit: PAGE })),
        middlePageMs: await ms(() => call('feature/list', { map_id: mapId, limit: PAGE, ...(middle ? { cursor: middle } : {}) })),
        lastPageMs: await ms(() => call('feature/list', { map_id: mapId, limit: PAGE, ...(end ? { cursor: end } : {}) })),
        bboxPageMs: await ms(() => call('feature/list', { map_id: mapId, bbox: [-9.9, 35.1, -9.0, 35.3], limit: PAGE })),
        groupPageMs: await ms(() => call('feature/list', { map_id: mapId, group: 2, limit: PAGE })),
        get100Ms: await ms(() => call('feature/get', { map_id: mapId, ids: Array.from({ length: 100 }, (_, i) => 1 + i * Math.floor(count / 100)) })),
      });
      const at = (await call('feature/list', { map_id: mapId, limit: 1 })).revision as number;
      await call('feature/save', { map_id: mapId, features: [{ type: 'Feature', id: 7, geometry: { type: 'Point', coordinates: [1, 1] }, properties: { title: 'Moved' } }] });
      rows.at(-1)!.changesAfterOneSaveMs = await ms(() => call('map/changes', { map_id: mapId, since_revision: at }));
    }
    // The whole big map: every page of 10,000 in turn, against one map/get.
    const wholePaged = await ms(async () => {
      let cursor: string | null = null;
      let features = 0;
      do {
        const page: Record<string, unknown> = await call('feature/list', { map_id: maps.big, limit: 10_000, ...(cursor ? { cursor } : {}) });
        features += (page.features as unknown[]).length;
        cursor = page.next_cursor as string | null;
      } while (cursor);
      if (features !== BIG) throw new Error(`paged ${features} features`);
    }, 3);
    console.log(JSON.stringify(rows, null, 2), `paged whole: ${wholePaged} ms`);
    // map/get's answer read as bytes (a page's JSON above is parsed: that only favours map/get).
    let wholeGet: number | string;
    try {
      wholeGet = await ms(async () => {
        const response = await fetch(`${service.base}/api/1/map/get`, { method: 'POST', headers: { authorization: `Token ${service.key}` }, body: JSON.stringify({ map_id: maps.big }) });
        const bytes = (await response.arrayBuffer()).byteLength;
        if (bytes < BIG * 50) throw new Error(`map/get answered ${bytes} bytes`);
      }, 3);
    } catch (error) {
      wholeGet = `failed: ${String((error as Error).cause ?? error)}`;
    }
    return { pages: rows, bigMapWhole: { pagedBy10000Ms: wholePaged, mapGetMs: wholeGet } };
  } finally {
    await service.stop();
  }
}
