// Photos and custom icons in the editor, in Chromium: an image and a PNG icon added to a drawn
// point through the item panel (file choosers, the service's uploads), undone and redone, saved
// and read back through map/get, the image removed again; the Photo tool placing a photo with GPS
// where it was taken and one without at the map's centre, as one undoable step each; bad files
// answered with a message in the panel (or the status line) and nothing changed. Screenshots at
// 1280 and 375 pixels in test/e2e/screenshots/editor-media-*.png; axe-core on the panel.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, reachButton, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Feature = { id: number; geometry: { type: string; coordinates: [number, number] }; properties: Record<string, unknown> };

/** A 640×480 photo-like JPEG (a sky-to-grass gradient), with GPS (Sydney) and a date when asked. */
async function photo(gps: boolean): Promise<Buffer> {
  const [width, height] = [640, 480];
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sky = y < height * 0.6;
      const t = y / height;
      pixels.set(sky ? [90 + 100 * t, 150 + 80 * t, 230] : [60 + (x % 40), 140 - 60 * t, 50], (y * width + x) * 3);
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 });
  return (
    gps
      ? image.withExif({
          IFD2: { DateTimeOriginal: '2023:08:15 09:30:00', OffsetTimeOriginal: '+10:00' },
          IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 51/1 36/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 36/1' },
        })
      : image
  ).toBuffer();
}

/** A 64×64 PNG icon: an orange disc with a white ring, on a transparent background. */
function iconPng(): Promise<Buffer> {
  const size = 64;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const r = Math.hypot(x - 31.5, y - 31.5);
      if (r < 30) pixels.set(r > 24 ? [255, 255, 255, 255] : [230, 110, 20, 255], (y * size + x) * 4);
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 4 } }).png().toBuffer();
}

const GIF = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');

async function loggedIn(username: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(error));
  await logIn(page, service.url, username);
  return page;
}

/** A map framed by two points around Paris (2–3° E, 48–49° N), opened with the editing tools on. */
async function openNewMap(page: Page, key: string): Promise<{ id: number; box: { x: number; y: number; width: number; height: number } }> {
  const features = [
    { type: 'Feature', geometry: { type: 'Point', coordinates: [2.0, 48.0] }, properties: { title: 'South-west' } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [3.0, 49.0] }, properties: { title: 'North-east' } },
  ];
  const map = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private', title: 'Photos' }, JSON.stringify({ type: 'FeatureCollection', features }));
  expect(map.error).toBeUndefined();
  await page.goto(`${service.url}${new URL(map.url as string).pathname}?edit=1`);
  await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
  await expect.poll(() => page.getByRole('button', { name: 'Draw a point' }).isVisible(), { timeout: 20_000 }).toBe(true);
  await page.waitForTimeout(500);
  return { id: map.id as number, box: (await page.locator('.maplibregl-canvas').boundingBox())! };
}

/** Clicks the button that opens a file chooser and picks the file in it. */
async function pick(page: Page, button: string, name: string, buffer: Buffer, mimeType = 'image/jpeg'): Promise<void> {
  const target = await reachButton(page, button);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), target.click()]);
  await chooser.setFiles({ name, mimeType, buffer });
}

const saveButton = (page: Page) => page.locator('.editor-toolbar button.save');
const status = (page: Page) => page.locator('.editor-status');
const featuresOf = async (key: string, id: number) => (await service.call('map/get', key, { map_id: id })).geojson.features as Feature[];
const byTitle = (features: Feature[], title: string) => features.find((feature) => feature.properties.title === title);
/** Whether the panel's thumbnail has loaded (the stored size was served to the page). */
const thumbnailLoaded = (page: Page, selector: string) => page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

async function save(page: Page): Promise<void> {
  await saveButton(page).click();
  await expect.poll(() => status(page).textContent(), { timeout: 20_000 }).toBe('Saved.');
}

describe('photos and custom icons in the editor in Chromium', () => {
  it('adds an image and a custom icon to a drawn point, undoes and redoes them, saves them and removes the image', async () => {
    const user = await service.newUser();
    const page = await loggedIn(user.username);
    const { id, box } = await openNewMap(page, user.key);
    await page.getByRole('button', { name: 'Draw a point' }).click();
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.55);
    await expect.poll(() => page.getByRole('heading', { name: 'New item' }).count()).toBe(1);
    await page.getByLabel('Title', { exact: true }).fill('Picnic');
    await page.getByLabel('Title', { exact: true }).press('Tab');
    await page.locator('#item-icon').click();
    await page.getByLabel(/^Search icons/).fill('park');
    await page.getByLabel(/^Search icons/).press('Enter');
    await expect.poll(() => page.locator('#item-icon').getAttribute('aria-label')).toMatch(/^Icon: park\./);

    // The image: uploaded, then shown as a thumbnail with Replace and Remove.
    await pick(page, 'Add image', 'meadow.jpg', await photo(false));
    await expect.poll(() => page.locator('.item-panel .media-thumb').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => thumbnailLoaded(page, '.item-panel .media-thumb')).toBe(true);
    expect(await page.getByRole('button', { name: 'Remove image' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Replace image' }).isVisible()).toBe(true);
    // The custom icon replaces the built-in one.
    await pick(page, 'Upload icon (PNG)', 'flag.png', await iconPng(), 'image/png');
    await expect.poll(() => page.locator('.item-panel .media-icon').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => thumbnailLoaded(page, '.item-panel .media-icon')).toBe(true);
    expect(await page.locator('#item-icon').getAttribute('aria-label')).toMatch(/^Icon: none\./);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Picnic');
    await page.getByText('Video or media link (YouTube, Vimeo…)').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/editor-media-panel.png` });
    expect(await accessibilityViolations(page)).toEqual([]);

    // Each upload is one edit: undo takes the icon back (the built-in one returns), redo brings it again.
    await page.getByRole('button', { name: 'Undo (Ctrl+Z)' }).click();
    await page.getByRole('button', { name: 'Picnic', exact: true }).click();
    await expect.poll(() => page.locator('#item-icon').getAttribute('aria-label')).toMatch(/^Icon: park\./);
    expect(await page.locator('.item-panel .media-icon').count()).toBe(0);
    expect(await page.locator('.item-panel .media-thumb').count()).toBe(1);
    await page.getByRole('button', { name: 'Redo (Shift+Ctrl+Z)' }).click();
    expect(await saveButton(page).textContent()).toBe('Save (1)');
    await save(page);
    let features = await featuresOf(user.key, id);
    const picnic = byTitle(features, 'Picnic')!;
    expect(picnic.properties.image).toEqual({ id: expect.stringMatching(/^[0-9A-Za-z]{16}$/), w: 640, h: 480, tip_color: expect.stringMatching(/^#[0-9a-f]{6}$/), avg_color: expect.stringMatching(/^#[0-9a-f]{6}$/) });
    expect(picnic.properties.marker_id).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(picnic.properties['marker-symbol']).toBeUndefined();
    const map = await service.call('map/get', user.key, { map_id: id });
    expect([map.images, map.markers]).toEqual([[(picnic.properties.image as { id: string }).id], [picnic.properties.marker_id]]);
    // The map draws the custom icon once the point is no longer being edited (undo and redo keep it selected).
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('.item-panel:not(.selection-panel)').isHidden()).toBe(true);
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${SHOTS}/editor-media-saved.png` });

    // Visitors see the photo in the item's popup.
    await page.getByRole('button', { name: 'Stop editing' }).click();
    await page.getByRole('button', { name: 'Picnic', exact: true }).click();
    await expect.poll(() => page.locator('.maplibregl-popup img').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => thumbnailLoaded(page, '.maplibregl-popup img')).toBe(true);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/editor-media-popup.png` });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Edit map' }).click();

    // Remove image: saved without it, the icon stays.
    await page.getByRole('button', { name: 'Picnic', exact: true }).click();
    await page.getByRole('button', { name: 'Remove image' }).click();
    expect(await page.locator('.item-panel .media-thumb').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add image' }).isVisible()).toBe(true);
    await save(page);
    features = await featuresOf(user.key, id);
    expect(byTitle(features, 'Picnic')!.properties.image).toBeUndefined();
    expect(byTitle(features, 'Picnic')!.properties.marker_id).toBe(picnic.properties.marker_id);
  });

  it('places a photo with GPS where it was taken and one without at the map centre, each one undoable step', async () => {
    const user = await service.newUser();
    const page = await loggedIn(user.username, 375);
    const { id, box } = await openNewMap(page, user.key);
    // On a phone the Photo tool is in the toolbar's More menu.
    const photoButton = await reachButton(page, "Add a photo: placed where it was taken, else at the map's centre");
    expect(await photoButton.textContent()).toBe('Photo');
    await page.keyboard.press('Escape');

    // Without GPS: at the map's centre, titled by its file, selected. The map is framed on its two
    // points, clear of the toolbar's one row: its centre is midway between them.
    await pick(page, "Add a photo: placed where it was taken, else at the map's centre", 'Garden view.jpg', await photo(false));
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toContain("“Garden view” added at the map's centre");
    await expect.poll(() => page.getByRole('heading', { name: 'New item' }).count()).toBe(1);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Garden view');
    await expect.poll(() => thumbnailLoaded(page, '.item-panel .media-thumb')).toBe(true);
    await page.waitForTimeout(500); // the map draws the point being edited with its next frame
    await page.screenshot({ path: `${SHOTS}/editor-media-photo-375.png`, fullPage: true });
    expect(await saveButton(page).textContent()).toBe('Save (1)');
    await save(page);
    const [lon, lat] = byTitle(await featuresOf(user.key, id), 'Garden view')!.geometry.coordinates;
    expect(Math.abs(lon - 2.5)).toBeLessThan(0.05);
    expect(Math.abs(lat - 48.5)).toBeLessThan(0.1);
    // Selected again, at the canvas's middle, it can be dragged to its place (the centre's position is one terra-draw takes).
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.keyboard.press('Escape');
    // Let go, the point goes back into the map's layer (drawn with a frame or two, later on a
    // loaded machine): then a click finds it. Clicked again until it does.
    await expect
      .poll(
        async () => {
          await page.mouse.click(cx, cy);
          return page.getByLabel('Title', { exact: true }).isVisible();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(true);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Garden view');
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 30, cy, { steps: 5 });
    await page.mouse.move(cx + 60, cy, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.press('Escape');
    await expect.poll(() => saveButton(page).textContent()).toBe('Save (1)');

    // With GPS: in Sydney, and the map goes there.
    await pick(page, "Add a photo: placed where it was taken, else at the map's centre", 'harbour.JPG', await photo(true));
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toBe('“harbour” added where it was taken (taken 2023-08-15 09:30).');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('harbour');
    expect(await saveButton(page).textContent()).toBe('Save (2)'); // the moved point and the new one
    // One step: one undo takes the whole new point away, redo brings it back.
    await (await reachButton(page, 'Undo (Ctrl+Z)')).click();
    expect(await saveButton(page).textContent()).toBe('Save (1)');
    await expect.poll(() => page.getByRole('button', { name: 'harbour', exact: true }).count()).toBe(0);
    await (await reachButton(page, 'Redo (Shift+Ctrl+Z)')).click();
    expect(await saveButton(page).textContent()).toBe('Save (2)');
    await save(page);

    const features = await featuresOf(user.key, id);
    const garden = byTitle(features, 'Garden view')!;
    const harbour = byTitle(features, 'harbour')!;
    expect(garden.geometry.coordinates[0]).toBeGreaterThan(lon + 0.01); // dragged east
    expect(Math.abs(garden.geometry.coordinates[1] - lat)).toBeLessThan(0.01);
    expect(harbour.geometry.coordinates).toEqual([151.21, -33.86]);
    for (const feature of [garden, harbour]) expect(feature.properties.image).toMatchObject({ w: 640, h: 480 });
    expect(harbour.properties.description).toBeUndefined(); // the date is told, not stored
  });

  it('shows why a bad file was refused, in the panel or the status line, and changes nothing', async () => {
    const user = await service.newUser();
    const page = await loggedIn(user.username, 375);
    const { id, box } = await openNewMap(page, user.key);
    await page.getByRole('button', { name: 'Draw a point' }).click();
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect.poll(() => page.getByRole('heading', { name: 'New item' }).count()).toBe(1);
    await page.getByLabel('Title', { exact: true }).fill('Kiosk');
    await page.getByLabel('Title', { exact: true }).press('Tab');

    await pick(page, 'Add image', 'animation.gif', GIF, 'image/gif');
    const alert = page.locator('.item-panel [role="alert"]');
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toBe('The image was not added: The file is a GIF image; a photo must be a JPEG or PNG image.');
    expect(await page.locator('.item-panel .media-thumb').count()).toBe(0);
    await pick(page, 'Upload icon (PNG)', 'icon.jpg', await photo(false));
    await expect.poll(() => page.locator('.item-panel [role="alert"]').last().textContent(), { timeout: 30_000 }).toBe(
      'The icon was not added: The file is a JPEG image; a custom icon must be a PNG image (a transparent background is best).',
    );
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Kiosk');
    await page.screenshot({ path: `${SHOTS}/editor-media-error-375.png`, fullPage: true });

    await pick(page, "Add a photo: placed where it was taken, else at the map's centre", 'scan.pdf', Buffer.from('%PDF-1.4\n%\n'), 'application/pdf');
    await expect.poll(() => status(page).textContent(), { timeout: 30_000 }).toBe('The photo was not added: The file is a PDF document; a photo must be a JPEG or PNG image.');
    expect(await saveButton(page).textContent()).toBe('Save (1)'); // the point and its title only
    await save(page);
    const features = await featuresOf(user.key, id);
    expect(features).toHaveLength(3);
    expect(byTitle(features, 'Kiosk')!.properties).toEqual({ title: 'Kiosk' });
    expect((await service.call('map/get', user.key, { map_id: id })).images).toEqual([]);
  });
});
