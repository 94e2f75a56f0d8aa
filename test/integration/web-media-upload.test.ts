// The web editor's uploads (POST /maps/{id}/images and /maps/{id}/markers) through the whole
// service: a multipart form from the map's page, the type told by the file's first bytes (no
// file type named), the uploadMedia workflow's answer (image/upload's and marker/upload's
// fields, GPS and date from EXIF), the uploader as the media's owner; other files refused with
// clear errors and nothing stored; who may upload, the CSRF check, the size limit; and the save
// path: a map takes the media of its owner and editors and refuses anyone else's.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';
import { Browser, collaborationMap, loggedInAccount } from './webClient.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.stop());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
type Answer = Record<string, any>;

const account = () => loggedInAccount(service, { formToken: true });

/** A 640×480 JPEG, with GPS (Sydney) and a date in its EXIF when asked. */
const photo = (gps: boolean) => {
  const image = sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } }).jpeg({ quality: 90 });
  return (
    gps
      ? image.withExif({
          IFD2: { DateTimeOriginal: '2023:08:15 09:30:00', OffsetTimeOriginal: '+02:00' },
          IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 51/1 36/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 36/1' },
        })
      : image
  ).toBuffer();
};
/** A 200×100 PNG, half transparent. */
const png = () => sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } }).png().toBuffer();
/** A PNG whose header says 70,000×10 pixels (and no more): refused by its size before any decode. */
const widePng = () => {
  const header = Buffer.alloc(33);
  header.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  header.writeUInt32BE(70_000, 16);
  header.writeUInt32BE(10, 20);
  header.set([8, 6, 0, 0, 0], 24);
  return header;
};
const GIF = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');

/** Posts a file as the editor's page does: multipart (`file`), the form token in X-CSRF-Token. */
async function upload(browser: Browser, mapId: number, kind: 'images' | 'markers', bytes: Uint8Array | string, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : Buffer.from(bytes)]), 'picked-file');
  const response = await browser.request(`/maps/${mapId}/${kind}`, { multipart: form, headers: { 'x-csrf-token': browser.cookie('mps_csrf') ?? '', ...headers } });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: response.status, answer: JSON.parse(response.html) as Answer };
}

const emptyMap = async (key: string) => (await service.send('map/upload', key, { file_type: 'empty', visibility: 'private', title: 'Photos' })).id as number;
const mediaCount = async (userId: number) =>
  Number((await service.db('images').where({ owner_id: userId }).count('* as n').first())!.n) + Number((await service.db('markers').where({ owner_id: userId }).count('* as n').first())!.n);
/** The request files still in the blob store. */
const leftUploads = () => {
  const dir = path.join(service.blobDir, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

/** Saves one new point using this image and marker from the editor's page (POST /maps/{id}/save). */
async function savePoint(browser: Browser, mapId: number, properties: Record<string, unknown>) {
  const { revision } = await service.db('maps').where({ id: mapId }).first('revision');
  const response = await browser.request(`/maps/${mapId}/save`, {
    json: { revision: Number(revision), features: { added: [{ key: '-1', feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties } }] } },
    headers: { 'x-csrf-token': browser.cookie('mps_csrf')! },
  });
  return { status: response.status, answer: JSON.parse(response.html) as Answer };
}

const imageProperty = (answer: Answer) => ({ id: answer.image_id, w: answer.width, h: answer.height, tip_color: answer.tip_color, avg_color: answer.avg_color });

describe('uploading images and icons from the web editor', () => {
  it('takes a JPEG and a PNG photo, told by their bytes, and answers the spec fields; the uploader owns them', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const jpeg = await upload(me.browser, id, 'images', await photo(false));
    expect([jpeg.status, jpeg.answer.error]).toEqual([200, undefined]);
    expect(Object.keys(jpeg.answer).sort()).toEqual(['avg_color', 'date_iso', 'date_str', 'geometry', 'has_gps', 'height', 'image_id', 'tip_color', 'width']);
    expect(jpeg.answer).toMatchObject({ width: 640, height: 480, has_gps: false, geometry: null, date_str: null, date_iso: null });
    expect(jpeg.answer.image_id).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(jpeg.answer.avg_color).toMatch(/^#[0-9a-f]{6}$/);
    const pngAnswer = await upload(me.browser, id, 'images', await png());
    expect(pngAnswer.answer).toMatchObject({ width: 200, height: 100, has_gps: false });
    for (const imageId of [jpeg.answer.image_id, pngAnswer.answer.image_id]) {
      expect(String((await service.db('images').where({ id: imageId }).first()).owner_id)).toBe(String(me.userId));
    }
    // The uploader sees the stored sizes (the editor's thumbnail) before any map uses them.
    const thumbnail = await me.browser.request(`/images/${jpeg.answer.image_id}/s256`);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(leftUploads()).toEqual([]);
  });

  it('answers the place and date of a photo with GPS in its EXIF', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const { status, answer } = await upload(me.browser, id, 'images', await photo(true));
    expect(status).toBe(200);
    expect(answer).toMatchObject({ has_gps: true, geometry: { type: 'Point', coordinates: [151.21, -33.86] }, date_str: '2023-08-15 09:30', date_iso: '2023-08-15T09:30:00+02:00' });
  });

  it('takes a PNG icon as a marker and answers its id', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const { status, answer } = await upload(me.browser, id, 'markers', await png());
    expect([status, Object.keys(answer)]).toEqual([200, ['marker_id']]);
    expect(String((await service.db('markers').where({ id: answer.marker_id }).first()).owner_id)).toBe(String(me.userId));
    const icon = await me.browser.request(`/markers/${answer.marker_id}/s64.png`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('refuses other files with a clear error and stores nothing', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const whole = await photo(false);
    const cases: [string, 'images' | 'markers', Uint8Array | string, number, string, string][] = [
      ['a GIF', 'images', GIF, 415, 'unsupported_file_type', 'The file is a GIF image; a photo must be a JPEG or PNG image.'],
      ['a PDF', 'images', '%PDF-1.4\n1 0 obj\n<<>>\nendobj\n', 415, 'unsupported_file_type', 'The file is a PDF document; a photo must be a JPEG or PNG image.'],
      ['text', 'images', 'just some words', 415, 'unsupported_file_type', 'The file is not an image type the service recognises; a photo must be a JPEG or PNG image.'],
      ['a JPEG icon', 'markers', whole, 415, 'unsupported_file_type', 'The file is a JPEG image; a custom icon must be a PNG image (a transparent background is best).'],
      ['an empty file', 'images', '', 400, 'missing_file', 'The chosen file is empty.'],
      ['a truncated JPEG', 'images', whole.subarray(0, Math.floor(whole.length / 2)), 400, 'invalid_image', 'The image is damaged or incomplete and cannot be read.'],
      ['a truncated PNG icon', 'markers', (await png()).subarray(0, 60), 400, 'invalid_image', 'The image is damaged or incomplete and cannot be read.'],
      ['a PNG too wide', 'images', widePng(), 413, 'image_too_large', 'The image is 70000×10 pixels; a side may be at most 65535 pixels.'],
    ];
    for (const [name, kind, bytes, status, code, message] of cases) {
      const { status: got, answer } = await upload(me.browser, id, kind, bytes);
      expect([name, got, answer.error_code, answer.error]).toEqual([name, status, code, message]);
    }
    // Not a multipart form; a form without the file.
    const json = await me.browser.request(`/maps/${id}/images`, { json: { file: 'x' }, headers: { 'x-csrf-token': me.browser.cookie('mps_csrf')! } });
    expect([json.status, JSON.parse(json.html).error_code]).toEqual([400, 'missing_file']);
    const noFile = new FormData();
    noFile.append('title', 'Lonely');
    const withoutFile = await me.browser.request(`/maps/${id}/markers`, { multipart: noFile, headers: { 'x-csrf-token': me.browser.cookie('mps_csrf')! } });
    expect([withoutFile.status, JSON.parse(withoutFile.html).error]).toEqual([400, 'The form has no file: choose one and send it in the "file" field.']);
    expect(await mediaCount(me.userId)).toBe(0);
    await expect.poll(leftUploads).toEqual([]);
    expect(service.internalErrors).toEqual([]);
  });

  it('holds to the upload limit while the file streams in', async () => {
    const me = await account();
    const id = await emptyMap(me.key);
    const limit = service.config.maxUploadBytes!;
    const big = new Uint8Array(limit + 1).fill(0x41);
    big.set([0xff, 0xd8, 0xff]);
    const { status, answer } = await upload(me.browser, id, 'images', big);
    expect([status, answer.error_code, answer.error]).toEqual([413, 'file_too_large', 'The file is larger than the upload limit of 15 MB.']);
    expect(await mediaCount(me.userId)).toBe(0);
    await expect.poll(leftUploads).toEqual([]);
  });

  it('lets the owner and, while collaboration is on, editors upload; not viewers, other accounts, anyone logged out or another site', async () => {
    const { owner: me, editor, viewer, stranger, mapId: id, collaborationOff } = await collaborationMap(service, emptyMap);
    const bytes = await png();
    expect((await upload(editor.browser, id, 'markers', bytes)).answer.marker_id).toBeTruthy();
    const refusals: [string, Browser, number, Record<string, string>, string, number][] = [
      ['a viewer', viewer.browser, id, {}, 'permission_denied', 403],
      ['another account', stranger.browser, id, {}, 'map_not_found', 404],
      ['no such map', me.browser, 999_999_999, {}, 'map_not_found', 404],
      ['another site', me.browser, id, { 'sec-fetch-site': 'cross-site' }, 'permission_denied', 403],
      ['no form token', me.browser, id, { 'x-csrf-token': 'guess' }, 'permission_denied', 403],
    ];
    for (const [who, browser, mapId, headers, code, status] of refusals) {
      for (const kind of ['images', 'markers'] as const) {
        const { status: got, answer } = await upload(browser, mapId, kind, bytes, headers);
        expect([who, kind, got, answer.error_code]).toEqual([who, kind, status, code]);
      }
    }
    const anonymous = new Browser(service.url);
    await anonymous.request('/explore');
    const loggedOut = await upload(anonymous, id, 'images', bytes);
    expect([loggedOut.status, loggedOut.answer.error_code, loggedOut.answer.error]).toEqual([403, 'permission_denied', 'Log in again to add a photo to this map: your session has ended.']);
    await collaborationOff();
    const offAgain = await upload(editor.browser, id, 'images', bytes);
    expect([offAgain.status, offAgain.answer.error_code]).toEqual([403, 'permission_denied']);
    for (const person of [me, viewer, stranger]) expect(await mediaCount(person.userId)).toBe(0);
    expect(await mediaCount(editor.userId)).toBe(1); // the editor's icon only
    await expect.poll(leftUploads).toEqual([]);
  });

  it("saves a map with its owner's and its editors' images and icons, and refuses anyone else's", async () => {
    const owner = await account();
    const editor = await account();
    const stranger = await account();
    const id = await emptyMap(owner.key);
    await service.db('map_members').insert({ map_id: id, user_id: editor.userId, role: 'editor' });
    await service.db('maps').where({ id }).update({ collaborate: true });
    const ownersImage = (await upload(owner.browser, id, 'images', await photo(false))).answer;
    const editorsImage = (await upload(editor.browser, id, 'images', await photo(true))).answer;
    const editorsIcon = (await upload(editor.browser, id, 'markers', await png())).answer;
    const strangersMap = await emptyMap(stranger.key);
    const strangersImage = (await upload(stranger.browser, strangersMap, 'images', await png())).answer;
    const strangersIcon = (await upload(stranger.browser, strangersMap, 'markers', await png())).answer;

    // The editor saves the owner's image; the owner saves the editor's image and icon.
    expect((await savePoint(editor.browser, id, { title: 'Mine', image: imageProperty(ownersImage) })).status).toBe(200);
    expect((await savePoint(owner.browser, id, { title: 'Theirs', image: imageProperty(editorsImage), marker_id: editorsIcon.marker_id })).status).toBe(200);
    const map = await service.call('map/get', owner.key, { map_id: id });
    expect(new Set(map.images)).toEqual(new Set([ownersImage.image_id, editorsImage.image_id]));
    expect(map.markers).toEqual([editorsIcon.marker_id]);
    expect(map.geojson.features.find((f: Answer) => f.properties.title === 'Theirs').properties).toMatchObject({ image: imageProperty(editorsImage), marker_id: editorsIcon.marker_id });

    // Someone else's image or icon: refused, with what to do, and nothing saved.
    const image = await savePoint(owner.browser, id, { title: 'Borrowed', image: imageProperty(strangersImage) });
    expect([image.status, image.answer.error_code]).toEqual([400, 'invalid_geojson']);
    expect(image.answer.error).toContain(`image "${strangersImage.image_id}", which is not an image uploaded by the map's owner or one of its editors`);
    const icon = await savePoint(editor.browser, id, { title: 'Borrowed', marker_id: strangersIcon.marker_id });
    expect([icon.status, icon.answer.error_code]).toEqual([400, 'invalid_geojson']);
    expect(icon.answer.error).toContain(`marker "${strangersIcon.marker_id}"`);
    expect((await service.call('map/get', owner.key, { map_id: id })).geojson.features).toHaveLength(2);
  });
});
