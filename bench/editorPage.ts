// What the editor benchmark (bench/editor.ts) measures inside Chromium, one function per measure:
// the time from navigation to the map drawn (the page's own `map-drawn` mark, web/app/main.ts),
// requestAnimationFrame deltas while the map is panned with mouse drags, and a save of one moved
// point through the editor's toolbar (the POST's own time from Resource Timing, and the time from
// the click on Save to the status saying "Saved."). Times are taken in the page, so Playwright's
// own round trips are not in them.
import type { Page, Response } from 'playwright-core';

export interface DrawnTiming {
  /** Navigation start → `map-drawn` (the GeoJSON source loaded and the map idle), ms. */
  drawn: number;
  /** map.geojson asked for and fully received, ms from navigation start. */
  dataStart: number;
  dataEnd: number;
  /** Its size on the wire and decoded. */
  dataBytes: number;
  dataDecodedBytes: number;
}

/**
 * Opens a map page and waits for its map to be drawn with every feature. From a blank page: a
 * navigation's clock starts before the page it leaves is torn down (a 100,000-point map's takes
 * up to a second), which is not the new page's time.
 */
export async function openDrawnMap(page: Page, url: string): Promise<DrawnTiming> {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  // Told by the page's own mark, not by polling the page (which would take its main thread's time).
  const wait = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const mark = list.getEntriesByName('map-drawn')[0];
          if (mark) resolve(mark.startTime);
        }).observe({ type: 'mark', buffered: true });
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${url}: no map drawn within 3 minutes`)), 180_000)));
  // A page whose front end failed (its bundle answered 500, a script error) never draws: said at once.
  let broken: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (broken = reject));
  const onResponse = (response: Response) => {
    if (response.status() >= 500) broken(new Error(`${url}: ${response.url()} answered ${response.status()}`));
  };
  const onError = (error: Error) => broken(new Error(`${url}: the page failed: ${error.message}`));
  page.on('response', onResponse);
  page.on('pageerror', onError);
  const drawn = await Promise.race([wait, late, failed]).finally(() => {
    clearTimeout(timer);
    page.off('response', onResponse);
    page.off('pageerror', onError);
  });
  return page.evaluate((drawn) => {
    const data = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/map.geojson')) as PerformanceResourceTiming;
    return { drawn, dataStart: data.startTime, dataEnd: data.responseEnd, dataBytes: data.encodedBodySize, dataDecodedBytes: data.decodedBodySize };
  }, drawn);
}

type Recorder = { frames: number[]; stop: boolean };

/**
 * Pans the map with mouse drags (20 moves each, a round trip of eight directions, so the view
 * stays over the same features) for `seconds`, and answers the requestAnimationFrame deltas
 * recorded meanwhile (ms).
 */
export async function panFrameTimes(page: Page, seconds: number): Promise<number[]> {
  const box = (await page.locator('.maplibregl-canvas').boundingBox())!;
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const moves: [number, number][] = [[300, 0], [-300, 0], [0, 200], [0, -200], [200, 150], [-200, -150], [-250, 120], [250, -120]];
  // As text: a named function in an evaluated callback would carry tsx's `__name` helper into the page.
  await page.evaluate(`{
    const state = { frames: [], stop: false };
    window.benchFrames = state;
    let last = 0;
    const tick = (now) => {
      if (last > 0) state.frames.push(now - last);
      last = now;
      if (!state.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }`);
  const until = Date.now() + seconds * 1000;
  for (let i = 0; Date.now() < until; i += 1) {
    const [dx, dy] = moves[i % moves.length]!;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + dx, cy + dy, { steps: 20 });
    await page.mouse.up();
  }
  return page.evaluate(() => {
    const state = (window as unknown as { benchFrames: Recorder }).benchFrames;
    state.stop = true;
    return state.frames;
  });
}

export interface SaveTiming {
  /** The POST /maps/{id}/save request, sent → answer received (Resource Timing), ms. */
  post: number;
  /** The click on Save → the status saying "Saved.", ms. */
  clickToSaved: number;
}

type SaveClock = { saved: Promise<number> };

/**
 * With the editor on and a point selected at `from` (page coordinates): drags it by (dx, dy)
 * pixels, ends its edit (Done: the move becomes the one unsaved change), clicks Save and times
 * the save.
 */
export async function dragAndSave(page: Page, from: { x: number; y: number }, dx: number, dy: number): Promise<SaveTiming> {
  const save = page.locator('.editor-toolbar button.save');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 10 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Done' }).click();
  if ((await save.textContent()) !== 'Save (1)') throw new Error(`the drag did not move the point (the Save button says "${await save.textContent()}")`);
  await page.evaluate(() => {
    const status = document.querySelector('.editor-status')!;
    let clicked = 0;
    document.querySelector('.editor-toolbar button.save')!.addEventListener('click', () => (clicked = performance.now()), { capture: true, once: true });
    const saved = new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (status.textContent !== 'Saved.' || clicked === 0) return;
        observer.disconnect();
        resolve(performance.now() - clicked);
      });
      observer.observe(status, { childList: true, characterData: true, subtree: true });
    });
    (window as unknown as { benchSave: SaveClock }).benchSave = { saved };
    performance.clearResourceTimings(); // room for the POST's entry (the buffer keeps 250)
  });
  await save.click();
  const clickToSaved = await page.evaluate(() => (window as unknown as { benchSave: SaveClock }).benchSave.saved);
  const post = await page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((e) => /\/maps\/\d+\/save$/.test(e.name)) as PerformanceResourceTiming;
    return entry.responseEnd - entry.startTime;
  });
  return { post, clickToSaved };
}
