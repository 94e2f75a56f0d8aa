// The web editor's Import (POST /maps/{id}/import) through the whole service: a multipart form
// from the map's page, the format told by the content (each format, none named), the append
// workflow's summary answered, "into a new group", other files refused naming the formats taken,
// who may import, the CSRF check, and the API's size limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holidayKmz, importSamples, PLACES_CSV } from '../support/importSamples.js';
import { startTestService, type TestService } from './harness.js';
import { Browser, collaborationMap, loggedInAccount } from './webClient.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.stop());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
type Answer = Record<string, any>;
type Feature = { id: number; properties: Record<string, unknown> };
type Group = { id: number; title: string; parent?: number };

const account = () => loggedInAccount(service, { formToken: true });

/** Posts the Import dialog's form as the page does: multipart, the form token in X-CSRF-Token. */
async function importFile(
  browser: Browser,
  mapId: number,
  file: { name: string; bytes: Uint8Array | string },
  options: { groupTitle?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; answer: Answer }> {
  const form = new FormData();
  form.append('file', new Blob([typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes)]), file.name);
  if (options.groupTitle !== undefined) form.append('group_title', options.groupTitle);
  const response = await browser.request(`/maps/${mapId}/import`, {
    multipart: form,
    headers: { 'x-csrf-token': browser.cookie('mps_csrf') ?? '', ...options.headers },
  });
  return { status: response.status, answer: JSON.parse(response.html) as Answer };
}

const emptyMap = async (key: string) => (await service.send('map/upload', key, { file_type: 'empty', visibility: 'private', title: 'Imports' })).id as number;
const documentOf = async (key: string, mapId: number) =>
  (await service.call('map/get', key, { map_id: mapId })).geojson as { groups?: Group[]; features: Feature[] };

describe('importing a file from the web editor', () => {
  it('tells each format from the content, runs the append and answers its summary', async () => {
    const me = await account();
    for (const sample of importSamples()) {
      const id = await emptyMap(me.key);
      // Named "upload" with no extension: the name plays no part.
      const { status, answer } = await importFile(me.browser, id, { name: 'upload', bytes: sample.bytes });
      expect([sample.name, status, answer.error]).toEqual([sample.name, 200, undefined]);
      expect([sample.name, answer.format]).toEqual([sample.name, sample.format]);
      expect(answer).toMatchObject({ id, title: 'Imports', new_group: null, image: 'refreshing' });
      expect(answer.import.features).toBeGreaterThan(0);
      const doc = await documentOf(me.key, id);
      expect([sample.name, doc.features.length]).toEqual([sample.name, answer.import.features]);
    }
  });

  it('answers the rows it skipped with their reasons, and the KMZ media it stored', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const csv = await importFile(me.browser, id, { name: 'places.csv', bytes: PLACES_CSV });
    expect(csv.answer.import).toEqual({ features: 3, skipped: [{ line: 4, reason: expect.stringContaining('row 4 skipped: latitude "abc"') }] });
    const kmz = await importFile(me.browser, id, { name: 'holiday.kmz', bytes: holidayKmz() });
    expect(kmz.answer).toMatchObject({ format: 'kmz', import: { features: 6 } });
    const map = await service.call('map/get', me.key, { map_id: id });
    expect(map.geojson.features).toHaveLength(9);
    expect(map.markers).toHaveLength(1); // the KMZ's own icon, stored as a marker
    expect(map.images).toHaveLength(1); // and its photo
  });

  it('puts the items into a new group: all of them for a KML, the table as the root of its subgroups', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const kml = importSamples().find((sample) => sample.format === 'kml')!;
    const first = await importFile(me.browser, id, kml, { groupTitle: '  Alps  ' });
    expect(first.answer).toMatchObject({ format: 'kml', new_group: 'Alps' });
    let doc = await documentOf(me.key, id);
    const alps = doc.groups!.find((group) => group.title === 'Alps')!;
    expect(alps.parent).toBeUndefined();
    expect(doc.features.every((feature) => feature.properties.group === alps.id)).toBe(true);
    expect(doc.groups).toHaveLength(1); // the KML's folders flattened into it, as map/append does

    const table = await importFile(me.browser, id, { name: 'places.csv', bytes: PLACES_CSV }, { groupTitle: 'Trip' });
    expect(table.answer).toMatchObject({ format: 'csv', new_group: 'Trip', import: { features: 3 } });
    doc = await documentOf(me.key, id);
    const byTitle = (title: string) => doc.groups!.find((group) => group.title === title)!;
    expect(byTitle('France').parent).toBe(byTitle('Trip').id);
    const paris = doc.features.find((feature) => feature.properties.title === 'Paris')!;
    const london = doc.features.find((feature) => feature.properties.title === 'London')!;
    expect([paris.properties.group, london.properties.group]).toEqual([byTitle('France').id, byTitle('Trip').id]);
  });

  it('refuses content of no format it takes, naming the formats, and changes nothing', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const png = Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001080600000000', 'hex');
    const cases: [string, Uint8Array | string, number, string, string][] = [
      ['photo.kml', png, 415, 'unsupported_type', 'The file is a PNG image; the import takes KML, KMZ, GPX, GeoJSON, CSV, XLSX, XLS and ODS files, zipped shapefiles, FlatGeobuf files and GeoPackages.'],
      ['feed.xml', '<?xml version="1.0"?><rss version="2.0"/>', 415, 'unsupported_type', 'root element is <rss>, neither KML nor GPX'],
      ['empty.csv', '', 400, 'missing_file', 'The chosen file is empty.'],
      ['broken.geojson', '{"type": "FeatureCollection", "features": [', 400, 'invalid_geojson', ''],
      ['points.csv', 'name,colour\nParis,blue\n', 400, 'missing_coordinate_columns', 'latitude'],
    ];
    for (const [name, bytes, status, code, message] of cases) {
      const { status: got, answer } = await importFile(me.browser, id, { name, bytes });
      expect([name, got, answer.error_code]).toEqual([name, status, code]);
      expect(answer.error).toContain(message);
    }
    // Not a multipart form, a form without the file, a group title that is blank.
    const json = await me.browser.request(`/maps/${id}/import`, { json: { file: 'x' }, headers: { 'x-csrf-token': me.browser.cookie('mps_csrf')! } });
    expect([json.status, JSON.parse(json.html).error_code]).toEqual([400, 'missing_file']);
    const noFile = new FormData();
    noFile.append('group_title', 'Lonely');
    const withoutFile = await me.browser.request(`/maps/${id}/import`, { multipart: noFile, headers: { 'x-csrf-token': me.browser.cookie('mps_csrf')! } });
    expect([withoutFile.status, JSON.parse(withoutFile.html).error]).toEqual([400, 'The form has no file: choose one and send it in the "file" field.']);
    // A form cut off in the middle of its file part.
    const cut = await fetch(`${service.url}/maps/${id}/import`, {
      method: 'POST',
      headers: {
        cookie: `mps_session=${me.browser.cookie('mps_session')}; mps_csrf=${me.browser.cookie('mps_csrf')}`,
        'x-csrf-token': me.browser.cookie('mps_csrf')!,
        'sec-fetch-site': 'same-origin',
        'content-type': 'multipart/form-data; boundary=XYZ',
      },
      body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nlat,lon\n1,2\n',
    });
    expect(cut.status).toBe(400);
    expect(await cut.json()).toEqual({ error_code: 'invalid_arguments', error: 'The form could not be read: it is not a well-formed multipart form.' });
    const blank = await importFile(me.browser, id, { name: 'places.csv', bytes: PLACES_CSV }, { groupTitle: '   ' });
    expect([blank.status, blank.answer.error_code, blank.answer.error]).toEqual([400, 'invalid_arguments', "The new group's title must not be empty."]);
    expect((await documentOf(me.key, id)).features).toEqual([]);
    expect(service.internalErrors).toEqual([]);
  });

  it('lets the owner and, while collaboration is on, editors import; not viewers, other accounts or anyone logged out', async () => {
    const { owner: me, editor, viewer, stranger, mapId: id, collaborationOff } = await collaborationMap(service, emptyMap);
    const file = { name: 'places.csv', bytes: PLACES_CSV };
    expect((await importFile(editor.browser, id, file)).answer).toMatchObject({ format: 'csv', import: { features: 3 } });
    const byViewer = await importFile(viewer.browser, id, file);
    expect([byViewer.status, byViewer.answer.error_code]).toEqual([403, 'permission_denied']);
    const byStranger = await importFile(stranger.browser, id, file);
    expect([byStranger.status, byStranger.answer.error_code]).toEqual([404, 'map_not_found']);
    await collaborationOff();
    const offAgain = await importFile(editor.browser, id, file);
    expect([offAgain.status, offAgain.answer.error_code]).toEqual([403, 'permission_denied']);
    const anonymous = new Browser(service.url);
    await anonymous.request('/explore');
    const loggedOut = await importFile(anonymous, id, file);
    expect([loggedOut.status, loggedOut.answer.error_code]).toEqual([403, 'permission_denied']);
    expect((await importFile(me.browser, 999_999_999, file)).status).toBe(404);
    expect((await documentOf(me.key, id)).features).toHaveLength(3); // the editor's import only
  });

  it('refuses a form from another site or without the form token', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const file = { name: 'places.csv', bytes: PLACES_CSV };
    const crossSite = await importFile(me.browser, id, file, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect([crossSite.status, crossSite.answer.error_code]).toEqual([403, 'permission_denied']);
    const noToken = await importFile(me.browser, id, file, { headers: { 'x-csrf-token': 'guess' } });
    expect(noToken.status).toBe(403);
    expect((await documentOf(me.key, id)).features).toEqual([]);
  });

  it('holds to the upload limit while the file streams in', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const limit = service.config.maxUploadBytes!;
    // Just past the limit: the form's size is within its allowance for boundaries, so the file is cut off as it streams.
    const { status, answer } = await importFile(me.browser, id, { name: 'big.csv', bytes: new Uint8Array(limit + 1).fill(0x41) });
    expect([status, answer.error_code, answer.error]).toEqual([413, 'file_too_large', 'The file is larger than the upload limit of 15 MB.']);
    // Far past it: refused by its declared length before any of it is read.
    const far = await importFile(me.browser, id, { name: 'bigger.csv', bytes: new Uint8Array(limit + 200_000).fill(0x41) });
    expect([far.status, far.answer.error_code]).toEqual([413, 'file_too_large']);
    expect((await documentOf(me.key, id)).features).toEqual([]);
  });
});
