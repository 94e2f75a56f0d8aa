// Street maps in the browser (issue 25, "Measured when resolved"): navigation → the map drawn with
// streets, for a 1,000-point map over central Helsinki opened at zoom 15 (`#map=15/…`: the view in
// the address) on the street fixture (BASEMAP_TILES), in the editor bench's Chromium (Debian's,
// software WebGL, 1280×800). "Drawn" is the page's own `map-drawn` mark (web/app/main.ts): every
// feature in its source and MapLibre idle, so the archive's tiles in view are fetched and drawn.
// A warm-up navigation (the front end's bundle is built at its first request), then RUNS timed
// ones from a blank page; median against the 1.5 s target.
import { ensureStreetFixture } from '../scripts/basemap/build.js';
import { launchChromium } from '../test/e2e/chromium.js';
import { openDrawnMap } from './editorPage.js';
import { startBenchService } from './service.js';
import { summarize } from './stats.js';

const POINTS = 1_000;
const RUNS = 5;
const TARGET_MS = 1_500;
const VIEW = '#map=15/60.1680/24.9420';
const ICONS = ['cafe', 'restaurant', 'museum', 'shop', 'park', 'bus'];

/** 1,000 points with titles and icons over about three views' width of central Helsinki (seeded: the same map every run). */
function helsinkiPoints() {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const features = Array.from({ length: POINTS }, (_, i) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [24.90 + random() * 0.085, 60.155 + random() * 0.03] },
    properties: { title: `Place ${i + 1}`, 'marker-symbol': ICONS[i % ICONS.length] },
  }));
  return JSON.stringify({ type: 'FeatureCollection', features });
}

export async function benchStreetMapPage(): Promise<Record<string, unknown>> {
  const fixture = ensureStreetFixture();
  const service = await startBenchService('pg', { BASEMAP_TILES: fixture });
  const browser = await launchChromium();
  try {
    const map = await service.send('map/upload', { file_type: 'geojson', visibility: 'public', title: 'Helsinki, 1,000 points' }, helsinkiPoints());
    const url = `${map.url as string}${VIEW}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    let archiveTiles = 0;
    page.on('response', (response) => {
      if (/\/basemaps\/osm\/[0-9a-f]{16}\/14\/\d+\/\d+\.mvt$/.test(response.url())) archiveTiles += 1;
    });
    await openDrawnMap(page, url); // warm-up
    if (archiveTiles === 0) throw new Error('the warm-up page drew no street tiles');
    const drawn: number[] = [];
    for (let run = 0; run < RUNS; run += 1) drawn.push((await openDrawnMap(page, url)).drawn);
    const { median, p90 } = summarize(drawn);
    return {
      measure: 'navigation → map drawn with streets, 1,000 points at zoom 15',
      target_ms: TARGET_MS,
      runs_ms: drawn.map(Math.round).join(', '),
      median_ms: Math.round(median),
      p90_ms: Math.round(p90),
      ratio_to_target: Math.round((median / TARGET_MS) * 100) / 100,
    };
  } finally {
    await browser.close();
    await service.stop();
  }
}
