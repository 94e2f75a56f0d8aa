// KML, KMZ and GPX through the API: map/upload and map/append, icons and photos inside a KMZ
// stored as markers and images, hostile files refused without leaving a map behind.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findImages, findMarkers } from '../../db/media.js';
import { makeZip } from '../support/zipWriter.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService();
  ({ key } = await service.newUser());
});
afterAll(() => service.stop());

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
const kmz = () =>
  makeZip([
    { name: 'doc.kml', data: fixture('kmz/doc.kml') },
    { name: 'files/icon.png', data: fixture('kmz/files/icon.png') },
    { name: 'files/photo.jpg', data: fixture('kmz/files/photo.jpg') },
    { name: 'files/readme.txt', data: fixture('kmz/files/readme.txt') },
  ]);
const upload = (fileType: string, body: Uint8Array | string, extra: object = {}) =>
  service.send('map/upload', key, { file_type: fileType, visibility: 'private', ...extra }, body);
const getMap = (id: number) => service.call('map/get', key, { map_id: id });
const mapCount = async () => (await service.call('map/list', key)).owner.length as number;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
type Feature = { geometry: { type: string; coordinates: unknown }; properties: Record<string, any> };
type Group = { id: number; title: string; parent?: number };

describe('KML, KMZ and GPX imports', () => {
  it('uploads a Google Earth KML with folders as nested groups, colours and hidden items', async () => {
    const answer = await upload('kml', fixture('kml/google-earth.kml'));
    expect(answer.error).toBeUndefined();
    expect(answer.import.features).toBeGreaterThan(3);
    const { geojson } = await getMap(answer.id);
    const groups = geojson.groups as Group[];
    expect(groups.some((g) => g.parent !== undefined && groups.some((p) => p.id === g.parent))).toBe(true);
    const features = geojson.features as Feature[];
    expect(features.every((f) => groups.some((g) => g.id === f.properties.group) || f.properties.group === undefined)).toBe(true);
    expect(features.some((f) => /^#[0-9a-f]{6}$/.test(f.properties.color))).toBe(true);
    expect(features.some((f) => f.properties.visible === false)).toBe(true);
    expect(new Set(features.map((f) => f.geometry.type)).size).toBeGreaterThan(2);
  });

  it('stores the icons and photos of a KMZ as markers and images and links them', async () => {
    const answer = await upload('kml', kmz());
    expect(answer.error).toBeUndefined();
    const map = await getMap(answer.id);
    const features = map.geojson.features as Feature[];
    const sunset = features.find((f) => f.properties.title === 'Sunset point')!;
    expect(sunset.properties.marker_id).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(sunset.properties.image).toMatchObject({ id: expect.stringMatching(/^[0-9A-Za-z]{16}$/), w: 4, h: 3 });
    expect(map.markers).toContain(sunset.properties.marker_id);
    expect(map.images).toContain(sunset.properties.image.id);
    const [marker] = await findMarkers(service.db, [sunset.properties.marker_id]);
    const [image] = await findImages(service.db, [sunset.properties.image.id]);
    expect(marker?.derivatives.length).toBeGreaterThan(0);
    expect(image?.width).toBe(4);
    // The same icon and photo used twice are stored once.
    const same = features.find((f) => f.properties.title === 'Same icon, same photo')!;
    expect(same.properties.marker_id).toBe(sunset.properties.marker_id);
    expect(same.properties.image.id).toBe(sunset.properties.image.id);
    // Remote and outside-the-archive references are never fetched or followed.
    const remote = features.find((f) => f.properties.title === 'Remote icon and image')!;
    expect(remote.properties.marker_id).toBeUndefined();
    expect(remote.properties.image).toBeUndefined();
  });

  it('titles a map after the file when the upload names no title', async () => {
    expect((await upload('kml', fixture('kml/google-earth.kml'))).title).toBe('Alpine trip');
    expect((await upload('kml', fixture('kml/google-earth.kml'), { title: 'Mine' })).title).toBe('Mine');
    const strava = await upload('gpx', fixture('gpx/strava.gpx'));
    expect(strava.title).not.toBe('Untitled map');
    expect(strava.short_name).toBe(strava.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''));
  });

  it('uploads a Google Timeline export: tracks beside empty points, long tuples noted in the report', async () => {
    const answer = await upload('kml', fixture('kml/google-timeline.kml'));
    expect(answer.error).toBeUndefined();
    expect(answer.import.features).toBe(4);
    expect(JSON.stringify(answer.import.skipped)).toContain('more than 3 numbers');
    const features = (await getMap(answer.id)).geojson.features as Feature[];
    const walk = features.find((f) => f.properties.title === 'Walking')!;
    expect(walk.geometry.type).toBe('LineString');
    expect(walk.properties).toMatchObject({ begin: '2024-05-01T08:00:00.000Z', end: '2024-05-01T08:20:00.000Z', Category: 'Walking' });
    expect(features.find((f) => f.properties.title === 'Googleplex')!.geometry).toEqual({ type: 'Point', coordinates: [-122.078, 37.427, 0] });
    expect(features.find((f) => f.properties.title === 'Long tuple pin')!.geometry).toEqual({ type: 'Point', coordinates: [-122.08, 37.42, 0] });
  });

  it('uploads a device GPX: waypoints, and a track with two segments as a MultiLineString with times', async () => {
    const answer = await upload('gpx', fixture('gpx/garmin.gpx'));
    expect(answer.error).toBeUndefined();
    const features = (await getMap(answer.id)).geojson.features as Feature[];
    expect(features.some((f) => f.geometry.type === 'Point' && typeof f.properties.title === 'string')).toBe(true);
    const track = features.find((f) => f.geometry.type === 'MultiLineString');
    expect(track).toBeDefined();
    expect(Array.isArray(track!.properties.times)).toBe(true);
  });

  it('appends a KML into new_group, every item directly in it', async () => {
    const id = (await upload('empty', '')).id as number;
    const answer = await service.send('map/append', key, { map_id: id, file_type: 'kml', new_group: 'From Earth' }, fixture('kml/google-earth.kml'));
    expect(answer.error).toBeUndefined();
    const { geojson } = await getMap(id);
    expect(geojson.groups).toEqual([{ id: expect.any(Number), title: 'From Earth' }]);
    expect((geojson.features as Feature[]).every((f) => f.properties.group === geojson.groups[0].id)).toBe(true);
  });

  it('refuses hostile and broken XML files with clear errors and leaves no map behind', async () => {
    const before = await mapCount();
    const cases: [string, string | Uint8Array, string][] = [
      ['kml', fixture('kml/billion-laughs.kml'), 'doctype_not_allowed'],
      ['kml', fixture('kml/external-entity.kml'), 'doctype_not_allowed'],
      ['kml', fixture('kml/malformed.kml'), 'invalid_file'],
      ['kml', fixture('kml/two-roots.kml'), 'invalid_file'],
      ['kml', fixture('kml/html-root.kml'), 'invalid_file'],
      ['kml', fixture('kml/network-links.kml'), 'no_features'],
      ['kml', `<kml>${'<Folder>'.repeat(100_000)}`, 'too_deep'],
      ['kml', makeZip([{ name: 'readme.txt', data: 'no kml here' }]), 'no_kml_in_archive'],
      ['kml', fixture('kmz/files/icon.png'), 'unsupported_type'],
      ['gpx', '<gpx><trk><trkseg><trkpt lat="1" lon="2">', 'invalid_file'],
    ];
    for (const [fileType, body, code] of cases) {
      const answer = await upload(fileType, body);
      expect([fileType, code, answer.error_code]).toEqual([fileType, code, code]);
      expect(answer.error.length).toBeGreaterThan(15);
    }
    expect(await mapCount()).toBe(before);
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
