// Text labels through the service (real PostgreSQL and Temporal): a map with labels lists them as
// text items on its page; its KML download, uploaded again as a new map, gives the same labels
// back; its CSV download, appended to a map, keeps them as labels (the extra columns come back as
// text, read as a label all the same).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTextLabel, textLabelColor, textSize } from '../../lib/textLabels.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
});
afterAll(() => service?.stop());

type Feature = { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> };

const geojson = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { text_label: true, title: 'Rive droite', color: '#b03a2e', text_size: 24 } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [2.34, 48.84] }, properties: { text_label: true, title: 'Rive gauche' } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [2.3, 48.86] }, properties: { title: 'A pin', color: '#2f6fd6' } },
  ],
};

/** What a label is to every renderer: its text, colour and size (undefined: not a label). */
const seen = (feature: Feature) => (isTextLabel(feature) ? [feature.properties.title, textLabelColor(feature.properties), textSize(feature.properties)] : [feature.properties.title]);

describe('text labels through the service', () => {
  it('lists labels as text items, and gives them back from its KML and CSV downloads', async () => {
    const user = await service.newUser();
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Seine' }, JSON.stringify(geojson));
    expect(map.error).toBeUndefined();
    const path = new URL(map.url as string).pathname;
    const page = await (await fetch(`${service.url}${path}`)).text();
    expect(page.match(/<svg class="kind kind-text"[^>]* aria-label="Text label">/g)).toHaveLength(2);
    expect(page).toMatch(/<svg class="kind kind-point"[^>]* aria-label="Point">/);

    const expected = [['Rive droite', '#b03a2e', 24], ['Rive gauche', '#1d232a', 16], ['A pin']];
    const kml = await (await fetch(`${service.url}${path}/download.kml`)).text();
    expect(kml).toContain('<IconStyle><scale>0</scale></IconStyle>');
    const fromKml = await service.send('map/upload', user.key, { file_type: 'kml', visibility: 'private' }, kml);
    expect(fromKml.error).toBeUndefined();
    const kmlFeatures = ((await service.call('map/get', user.key, { map_id: fromKml.id })).geojson as { features: Feature[] }).features;
    expect(kmlFeatures.map(seen)).toEqual(expected);
    expect(kmlFeatures[0]!.properties).toEqual({ title: 'Rive droite', text_label: true, color: '#b03a2e', text_size: 24 });

    const csv = await (await fetch(`${service.url}${path}/download.csv`)).text();
    expect(csv.split('\r\n')[0]).toContain('text_label');
    const back = await service.send('map/upload', user.key, { file_type: 'empty', visibility: 'private', title: 'Back' });
    const appended = await service.send('map/append', user.key, { map_id: back.id, file_type: 'csv' }, csv);
    expect(appended.error).toBeUndefined();
    const csvFeatures = ((await service.call('map/get', user.key, { map_id: back.id })).geojson as { features: Feature[] }).features;
    expect(csvFeatures.map(seen)).toEqual(expected);
    expect(csvFeatures[0]!.properties).toMatchObject({ text_label: 'true', text_size: '24' });
  });
});
