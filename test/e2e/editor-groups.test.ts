// Groups in the map editor, in Chromium: a new group (its title with a slash), an item put into
// it from the item panel and another dragged onto a group, a group nested by dragging and
// ordered from its form, a group deleted with its content moved out and another with its content
// deleted, undo of a deletion; saved and read back through map/get. Then two people: one deletes
// a group while the other puts a new item in it — the group stays for that item.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../integration/harness.js';
import { accessibilityViolations } from './accessibility.js';
import { logIn, SHOTS, startServiceAndChromium, stopServiceAndChromium } from './chromium.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => ({ service, browser } = await startServiceAndChromium()));
afterAll(() => stopServiceAndChromium({ service, browser }));

type Doc = {
  features: { id: number; properties: Record<string, unknown> }[];
  groups: { id: number | string; title: string; parent?: number | string }[];
};

async function loggedIn(username: string, width = 1280): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await logIn(page, service.url, username);
  return { context, page, errors };
}

async function openEditor(page: Page, path: string): Promise<void> {
  await page.goto(`${service.url}${path}`);
  await expect.poll(() => page.locator('.maplibregl-canvas').count(), { timeout: 20_000 }).toBe(1);
  await page.getByRole('button', { name: 'Edit map' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'New group' }).isVisible()).toBe(true);
}

const documentOf = async (key: string, id: number) => (await service.call('map/get', key, { map_id: id })).geojson as Doc;
const saveButton = (page: Page) => page.locator('.editor-toolbar button.save');
const groupEntry = (page: Page, title: string) => page.locator('.item-list li.group', { has: page.locator(':scope > details > summary', { hasText: title }) }).first();
const summaryOf = (page: Page, title: string) => page.locator('.item-list summary', { hasText: title }).first();
const groupOfItem = (doc: Doc, title: string) => doc.features.find((f) => f.properties.title === title)?.properties.group;

async function save(page: Page): Promise<void> {
  await saveButton(page).click();
  await expect.poll(() => page.locator('.editor-status').textContent(), { timeout: 20_000 }).toBe('Saved.');
}

async function newMap(key: string) {
  const geojson = {
    type: 'FeatureCollection',
    groups: [
      { id: 1, title: 'Trails' },
      { id: 2, title: 'Old' },
    ],
    features: [
      { type: 'Feature', geometry: { type: 'Point', coordinates: [2.0, 48.0] }, properties: { title: 'Ridge', group: 1 } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [2.5, 48.5] }, properties: { title: 'Bakery' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [3.0, 49.0] }, properties: { title: 'Spring' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [2.2, 48.2] }, properties: { title: 'Ruin', group: 2 } },
    ],
  };
  const map = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public', title: 'Grouped' }, JSON.stringify(geojson));
  expect(map.error).toBeUndefined();
  return { id: map.id as number, path: new URL(map.url as string).pathname };
}

describe('groups in the map editor', () => {
  it('creates, names, fills, nests, orders and deletes groups, with undo, and saves them', async () => {
    const user = await service.newUser();
    const map = await newMap(user.key);
    const { context, page, errors } = await loggedIn(user.username);
    await openEditor(page, map.path);

    // A new group opens its form with the title chosen: a title with a slash is one title.
    await page.getByRole('button', { name: 'New group' }).click();
    await expect.poll(() => page.getByLabel('Group title').count()).toBe(1);
    await page.getByLabel('Group title').fill('Food/Drink');
    await page.getByLabel('Group title').press('Enter');
    await expect.poll(() => summaryOf(page, 'Food/Drink').count()).toBe(1);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('.group-form').count()).toBe(0);

    // Bakery into it from the item panel's group dropdown.
    await page.getByRole('button', { name: 'Bakery', exact: true }).click();
    await expect.poll(() => page.getByLabel('Group', { exact: true }).count()).toBe(1);
    await page.getByLabel('Group', { exact: true }).selectOption({ label: 'Food/Drink' });
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => groupEntry(page, 'Food/Drink').locator('[data-item-id]').count()).toBe(1);
    expect(await summaryOf(page, 'Food/Drink').textContent()).toBe('Food/Drink (1)');

    // Spring dragged onto the Trails group's title goes into it.
    await page.locator('.item-list li.item', { hasText: 'Spring' }).dragTo(summaryOf(page, 'Trails'));
    await expect.poll(() => summaryOf(page, 'Trails').textContent()).toBe('Trails (2)');

    // Food/Drink dragged onto the middle of Trails' title nests inside it (Trails counts its items).
    await summaryOf(page, 'Food/Drink').dragTo(summaryOf(page, 'Trails'));
    await expect.poll(() => groupEntry(page, 'Trails').locator('li.group').count()).toBe(1);
    expect(await summaryOf(page, 'Trails').textContent()).toBe('Trails (3)');
    await page.screenshot({ path: `${SHOTS}/editor-groups-nested.png` });

    // Old moved above Trails from its form.
    await groupEntry(page, 'Old').getByRole('button', { name: 'Edit the group Old' }).click();
    await page.getByRole('button', { name: 'Move up' }).click();
    await expect.poll(() => page.locator('.item-list > li.group > details > summary').allTextContents()).toEqual(['Old (1)', 'Trails (3)']);

    // Old deleted (its form stays open after a move), its item kept in no group; undo brings
    // the group and its item's place back.
    await page.getByRole('button', { name: 'Delete group' }).click();
    await expect.poll(() => page.getByRole('alertdialog').textContent()).toContain('“Old” holds 1 item.');
    await page.screenshot({ path: `${SHOTS}/editor-groups-delete.png` });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Keep, in no group' }).click();
    await expect.poll(() => summaryOf(page, 'Old').count()).toBe(0);
    expect(await page.locator('.item-list > li.item', { hasText: 'Ruin' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => groupEntry(page, 'Old').locator('li.item', { hasText: 'Ruin' }).count()).toBe(1);

    // Food/Drink deleted with what it holds.
    await groupEntry(page, 'Food/Drink').getByRole('button', { name: 'Edit the group Food/Drink' }).click();
    await page.getByLabel('Group title').fill('Food & Drink');
    await page.getByLabel('Group title').press('Enter');
    await expect.poll(() => summaryOf(page, 'Food & Drink').count()).toBe(1);
    await page.getByRole('button', { name: 'Delete group' }).click();
    await page.getByRole('button', { name: 'Delete them too' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Bakery', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Bakery', exact: true }).count()).toBe(1);

    await save(page);
    let doc = await documentOf(user.key, map.id);
    const food = doc.groups.find((g) => g.title === 'Food & Drink')!;
    expect(doc.groups.map((g) => [g.title, g.parent])).toEqual([
      ['Old', undefined],
      ['Trails', undefined],
      ['Food & Drink', 1],
    ]);
    expect(typeof food.id).toBe('string');
    // The items keep their groups' own ids: a number stays a number.
    expect([groupOfItem(doc, 'Ridge'), groupOfItem(doc, 'Spring'), groupOfItem(doc, 'Bakery'), groupOfItem(doc, 'Ruin')]).toEqual([1, 1, food.id, 2]);

    // Reloaded: the tree is the saved one; the group with its content deleted this time.
    await openEditor(page, map.path);
    expect(await summaryOf(page, 'Trails').textContent()).toBe('Trails (3)');
    await groupEntry(page, 'Trails').getByRole('button', { name: 'Edit the group Trails' }).click();
    await page.getByRole('button', { name: 'Delete group' }).click();
    await expect.poll(() => page.getByRole('alertdialog').textContent()).toContain('“Trails” holds 3 items and 1 group.');
    await page.getByRole('button', { name: 'Delete them too' }).click();
    await save(page);
    doc = await documentOf(user.key, map.id);
    expect(doc.groups.map((g) => g.title)).toEqual(['Old']);
    expect(doc.features.map((f) => f.properties.title)).toEqual(['Ruin']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps a group one person deleted when another put an item in it meanwhile', async () => {
    const owner = await service.newUser();
    const map = await newMap(owner.key);
    const first = await loggedIn(owner.username);
    const second = await loggedIn(owner.username, 375);
    await openEditor(first.page, map.path);
    await openEditor(second.page, map.path);

    // The second person (on a phone) moves Bakery into Trails and saves first.
    await second.page.getByRole('button', { name: 'Bakery', exact: true }).click();
    await second.page.getByLabel('Group', { exact: true }).selectOption({ label: 'Trails' });
    await second.page.getByRole('button', { name: 'Done' }).click();
    await second.page.screenshot({ path: `${SHOTS}/editor-groups-375.png`, fullPage: true });
    expect(await second.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await save(second.page);

    // The first deletes Trails, moving out the one item it knew of: the save is refused, Trails stays.
    await groupEntry(first.page, 'Trails').getByRole('button', { name: 'Edit the group Trails' }).click();
    await first.page.getByRole('button', { name: 'Delete group' }).click();
    await first.page.getByRole('button', { name: 'Keep, in no group' }).click();
    await saveButton(first.page).click();
    await expect.poll(() => first.page.locator('.editor-status').textContent()).toContain('Groups you deleted are kept for what others put in them: “Trails” (1 item put in it meanwhile).');
    await first.page.screenshot({ path: `${SHOTS}/editor-groups-conflict.png` });
    expect((await documentOf(owner.key, map.id)).groups.map((g) => g.title)).toEqual(['Trails', 'Old']);
    await first.page.getByRole('button', { name: 'Save again' }).click();
    await expect.poll(() => first.page.locator('.editor-status').textContent(), { timeout: 20_000 }).toBe('Saved.');
    const doc = await documentOf(owner.key, map.id);
    expect(doc.groups.map((g) => g.title)).toEqual(['Old', 'Trails']);
    expect([groupOfItem(doc, 'Ridge'), groupOfItem(doc, 'Bakery')]).toEqual([undefined, 1]);
    expect([...first.errors, ...second.errors]).toEqual([]);
    await first.context.close();
    await second.context.close();
  });
});
