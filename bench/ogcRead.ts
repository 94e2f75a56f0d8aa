// A 200,000-feature map read whole through its OGC API – Features service (issue 28): by GDAL's
// OAPIF driver (`ogr2ogr` to a GeoJSON file, Debian's gdal-bin) and by a client following the
// items' `next` links (the pages read as bytes), against one `map/get` of the same map (read as
// bytes). Through the embedded service on PostgreSQL, over HTTP; medians of 3 runs. Printed as
// ratios to map/get (below 1: faster than map/get); not an assertion anywhere.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { startBenchService } from './service.js';
import { summarize } from './stats.js';

const run = promisify(execFile);
const COUNT = 200_000;
const RUNS = 3;

const document = () =>
  JSON.stringify({
    type: 'FeatureCollection',
    groups: [{ id: 1, title: 'Odd' }, { id: 2, title: 'Even' }],
    features: Array.from({ length: COUNT }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-10 + (i % 500) * 0.04, 35 + Math.floor(i / 500) * 0.05] },
      properties: { title: `Point ${i + 1}`, description: 'A point of the benchmark map.', group: (i % 2) + 1 },
    })),
  });

export async function benchOgcRead() {
  const service = await startBenchService('pg', { MAX_UPLOAD_MB: '64' });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ogc-bench-'));
  const ms = async (fn: () => Promise<unknown>, runs = RUNS) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      await fn();
      samples.push(performance.now() - started);
    }
    return Math.round(summarize(samples).median);
  };
  try {
    const map = await service.send('map/upload', { file_type: 'geojson', visibility: 'private', title: 'Big' }, document());
    const ogc = `${String(map.url)}/ogc`;
    const auth = { authorization: `Token ${service.key}` };

    const mapGetMs = await ms(async () => {
      const response = await fetch(`${service.base}/api/1/map/get`, { method: 'POST', headers: auth, body: JSON.stringify({ map_id: map.id }) });
      const bytes = (await response.arrayBuffer()).byteLength;
      if (bytes < COUNT * 50) throw new Error(`map/get answered ${bytes} bytes`);
    });
    const ogr2ogr = (pageSize: number | undefined) => async () => {
      const out = path.join(work, 'out.geojson');
      fs.rmSync(out, { force: true });
      const options = pageSize ? ['-oo', `PAGE_SIZE=${pageSize}`] : [];
      await run('ogr2ogr', ['--config', 'GDAL_HTTP_HEADERS', `Authorization: Token ${service.key}`, '-f', 'GeoJSON', ...options, out, `OAPIF:${ogc}`, 'map'], { maxBuffer: 1 << 24 });
      const copied = JSON.parse(fs.readFileSync(out, 'utf8')) as { features: unknown[] };
      if (copied.features.length !== COUNT) throw new Error(`ogr2ogr copied ${copied.features.length} features`);
    };
    // GDAL reading the whole document in one answer, for GDAL's own share of the time above.
    const ogr2ogrWhole = async () => {
      const out = path.join(work, 'whole.geojson');
      fs.rmSync(out, { force: true });
      await run('ogr2ogr', ['--config', 'GDAL_HTTP_HEADERS', `Authorization: Token ${service.key}`, '-f', 'GeoJSON', out, `${String(map.url)}/map.geojson`], { maxBuffer: 1 << 24 });
      const copied = JSON.parse(fs.readFileSync(out, 'utf8')) as { features: unknown[] };
      if (copied.features.length !== COUNT) throw new Error(`ogr2ogr copied ${copied.features.length} features`);
    };
    const pages = (limit: number) => async () => {
      let features = 0;
      for (let next: string | undefined = `${ogc}/collections/map/items?limit=${limit}`; next; ) {
        const response = await fetch(next, { headers: { ...auth, accept: 'application/geo+json' } });
        const text = await response.text();
        // Only the links at the page's start are parsed: the features are counted, not decoded.
        const head = JSON.parse(`${text.slice(0, text.indexOf(',"features":['))}}`) as { numberReturned: number; links: { rel: string; type: string; href: string }[] };
        features += head.numberReturned;
        next = head.links.find((l) => l.rel === 'next' && l.type === 'application/geo+json')?.href;
      }
      if (features !== COUNT) throw new Error(`paged ${features} features`);
    };
    const rows = [
      { read: 'map/get (bytes)', ms: mapGetMs },
      { read: 'OGC items, pages of 10,000 by next links (bytes)', ms: await ms(pages(10_000)) },
      { read: 'OGC items, pages of 1,000 by next links (bytes)', ms: await ms(pages(1_000)) },
      { read: 'ogr2ogr OAPIF → GeoJSON file, PAGE_SIZE=10000', ms: await ms(ogr2ogr(10_000)) },
      { read: 'ogr2ogr OAPIF → GeoJSON file, PAGE_SIZE=1000', ms: await ms(ogr2ogr(1_000)) },
      { read: "ogr2ogr of the map's GeoJSON over HTTP (map.geojson, as map/get) → GeoJSON file", ms: await ms(ogr2ogrWhole) },
    ].map((row) => ({ ...row, ratioToMapGet: +(row.ms / mapGetMs).toFixed(2) }));
    // What a client asks before it reads: the collections with their extents (one scan of the map's rows).
    const collectionsMs = await ms(async () => {
      const response = await fetch(`${ogc}/collections`, { headers: { ...auth, accept: 'application/json' } });
      if (response.status !== 200) throw new Error(`collections: ${response.status}`);
      await response.arrayBuffer();
    });
    return { features: COUNT, rows, collectionsMs };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    await service.stop();
  }
}
