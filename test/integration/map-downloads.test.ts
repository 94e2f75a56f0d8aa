// A map's downloads: GeoJSON (what map/get has), CSV and XLSX of its points in the table import's
// columns — imported back as a new map, the same points with the same titles, groups, colours,
// icons, visibility, images and extra columns; formulas neutralised in the file and restored by the
// import; lines and areas counted as left out; access as the page's; renamed addresses redirect.
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ renderWorker: false });
});
afterAll(() => service?.stop());

type Feature = { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> };

describe('map downloads', () => {
  it('gives the points as CSV that imports back to the same points, formulas neutralised', async () => {
    const user = await service.newUser();
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#40a060' } }).jpeg().toBuffer();
    const image = await service.send('image/upload', user.key, { file_type: 'jpg' }, photo);
    expect(image.error).toBeUndefined();
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Food' }, { id: 2, title: 'Cafés/Bars', parent: 1 }],
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.3522, 48.8566] }, properties: { title: '=HYPERLINK("http://evil")', description: 'Line one\nline "two", with a comma', group: 2, color: '#aa3300', 'marker-symbol': 'cafe', url: 'https://example.org', media_url: 'https://youtu.be/x', rating: 4, cuisine: 'French' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [-0.1276, 51.5072] }, properties: { title: '-5 degrees', visible: false, group: 1, image: { id: image.image_id } } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [13.405, 52.52] }, properties: { title: '@mention +1', description: '=1+1\nsecond line' } },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, properties: { title: 'A line' } },
      ],
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'private', title: 'Table' }, JSON.stringify(geojson));
    const path = new URL(map.url as string).pathname;
    const response = await fetch(`${service.url}${path}/download.csv`, { headers: { authorization: `Token ${user.key}` } });
    expect([response.status, response.headers.get('content-type'), response.headers.get('content-disposition'), response.headers.get('x-shapes-left-out')]).toEqual([
      200,
      'text/csv; charset=utf-8',
      'attachment; filename="table.csv"',
      '1',
    ]);
    const csv = await response.text();
    const rows = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['lat', 'lon', 'title', 'description', 'group', 'url', 'color', 'visible', 'media_url', 'icon', 'service_image_url', 'rating', 'cuisine']);
    // A spreadsheet would run these as formulas: each starts with an apostrophe in the file.
    expect(rows.slice(1).map((row) => row[2])).toEqual([`'=HYPERLINK("http://evil")`, "'-5 degrees", "'@mention +1"]);
    // …a formula followed by a line break too (papaparse's own escapeFormulae let it through).
    expect(rows[3]![3]).toBe("'=1+1\nsecond line");
    expect(rows[1]!.slice(0, 2)).toEqual(['48.8566', '2.3522']);
    expect(rows[2]!.slice(0, 2)).toEqual(['51.5072', '-0.1276']);
    expect(rows[1]![4]).toBe('Food/Cafés\\/Bars');
    expect(rows[2]![10]).toBe(`${service.url}/images/${image.image_id}`);

    // Tables are imported by appending (map/append takes csv; map/upload does not, per the spec).
    const back = await service.send('map/upload', user.key, { file_type: 'empty', visibility: 'private', title: 'Back' });
    const appended = await service.send('map/append', user.key, { map_id: back.id, file_type: 'csv' }, csv);
    expect(appended.error).toBeUndefined();
    expect(appended.import).toEqual({ features: 3, skipped: [] });
    const doc = (await service.call('map/get', user.key, { map_id: back.id })).geojson as { groups: { id: number; title: string; parent?: number }[]; features: Feature[] };
    const [cafe, london, berlin] = doc.features;
    expect(cafe!.geometry.coordinates).toEqual([2.3522, 48.8566]);
    expect(cafe!.properties).toMatchObject({ title: '=HYPERLINK("http://evil")', description: 'Line one\nline "two", with a comma', color: '#aa3300', 'marker-symbol': 'cafe', url: 'https://example.org', media_url: 'https://youtu.be/x', rating: '4', cuisine: 'French' });
    const groupTitle = (id: unknown) => doc.groups.find((group) => group.id === id);
    // A slash in a title is escaped (Food/Cafés\/Bars) and read back as one title.
    expect(groupTitle(cafe!.properties.group)?.title).toBe('Cafés/Bars');
    expect(groupTitle(groupTitle(cafe!.properties.group)?.parent)?.title).toBe('Food');
    expect(london!.properties).toMatchObject({ title: '-5 degrees', visible: false, image: { id: image.image_id } });
    expect(groupTitle(london!.properties.group)?.title).toBe('Food');
    expect(berlin!.properties).toMatchObject({ title: '@mention +1', description: '=1+1\nsecond line' });
  });

  it('gives the same table as XLSX — bold frozen header, numbers as numbers, text as text — that imports back to the same points', async () => {
    const user = await service.newUser();
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#4060a0' } }).jpeg().toBuffer();
    const image = await service.send('image/upload', user.key, { file_type: 'jpg' }, photo);
    expect(image.error).toBeUndefined();
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 1, title: 'Food' }, { id: 2, title: 'Cafés', parent: 1 }, { id: 3, title: '=Tricky' }],
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.3522, 48.8566] }, properties: { title: '=HYPERLINK("http://evil")', description: 'Line one\r\nline <two> & "three"\u0001, _x0041_ stays', group: 2, color: '#aa3300', 'marker-symbol': 'cafe', url: 'https://example.org/?a=1&b=2', media_url: 'https://youtu.be/x', rating: 4, cuisine: 'French', open: true } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [-0.1276, 51.5072] }, properties: { title: "'=already quoted", visible: false, group: 1, image: { id: image.image_id }, rating: -2.5 } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [13.405, 52.52] }, properties: { title: '＝SUM(A1)', description: '=1+1\nsecond line', group: 3, cuisine: '+49 30' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [139.6917, 35.6895] }, properties: { title: '東京 \t@home', 'marker-symbol': 'rail', color: '#0055ff' } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, properties: { title: 'An area' } },
      ],
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'private', title: 'Workbook' }, JSON.stringify(geojson));
    const path = new URL(map.url as string).pathname;
    const auth = { authorization: `Token ${user.key}` };
    const response = await fetch(`${service.url}${path}/download.xlsx`, { headers: auth });
    expect([response.status, response.headers.get('content-type'), response.headers.get('content-disposition'), response.headers.get('x-shapes-left-out')]).toEqual([
      200,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'attachment; filename="workbook.xlsx"',
      '1',
    ]);
    const xlsx = Buffer.from(await response.arrayBuffer());

    // Read by exceljs's own reader (not ours): one worksheet, header bold and frozen.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx as unknown as ExcelJS.Buffer);
    expect(book.worksheets.length).toBe(1);
    const sheet = book.worksheets[0]!;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(2).getCell(1).font?.bold).not.toBe(true);
    // Numbers as numbers, text as text (never a formula), the same cells as the CSV download.
    expect([sheet.getCell('A2').type, sheet.getCell('A2').value, sheet.getCell('B3').value]).toEqual([ExcelJS.ValueType.Number, 48.8566, -0.1276]);
    expect([sheet.getCell('L3').type, sheet.getCell('L3').value]).toEqual([ExcelJS.ValueType.Number, -2.5]);
    // Text is inline text (exceljs reads it as one run of rich text), never a formula.
    expect([sheet.getCell('C2').type, sheet.getCell('C2').text]).toEqual([ExcelJS.ValueType.RichText, `'=HYPERLINK("http://evil")`]);
    const cells: string[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      const texts: string[] = [];
      for (let column = 1; column <= sheet.columnCount; column++) {
        const cell = row.getCell(column);
        expect([ExcelJS.ValueType.Number, ExcelJS.ValueType.RichText, ExcelJS.ValueType.Null]).toContain(cell.type);
        texts.push(cell.type === ExcelJS.ValueType.Number ? String(cell.value) : cell.text);
      }
      cells.push(texts);
    });
    const csv = await (await fetch(`${service.url}${path}/download.csv`, { headers: auth })).text();
    const csvRows = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(cells).toEqual(csvRows);
    expect(cells[0]).toEqual(['lat', 'lon', 'title', 'description', 'group', 'url', 'color', 'visible', 'media_url', 'icon', 'service_image_url', 'rating', 'cuisine', 'open']);
    expect(cells.slice(1).map((row) => row[2])).toEqual([`'=HYPERLINK("http://evil")`, "''=already quoted", "'＝SUM(A1)", '東京 \t@home']);
    expect(cells.slice(1).map((row) => row[4])).toEqual(['Food/Cafés', 'Food', "'=Tricky", '']);

    // Appended to an empty map as a spreadsheet: the same points back.
    const back = await service.send('map/upload', user.key, { file_type: 'empty', visibility: 'private', title: 'Back' });
    const appended = await service.send('map/append', user.key, { map_id: back.id, file_type: 'excel' }, xlsx);
    expect(appended.error).toBeUndefined();
    expect(appended.import).toEqual({ features: 4, skipped: [] });
    const doc = (await service.call('map/get', user.key, { map_id: back.id })).geojson as { groups: { id: number; title: string; parent?: number }[]; features: Feature[] };
    const group = (id: unknown) => doc.groups.find((g) => g.id === id);
    const [cafe, london, berlin, tokyo] = doc.features;
    expect(doc.features.map((f) => f.geometry.coordinates)).toEqual(geojson.features.slice(0, 4).map((f) => f.geometry.coordinates));
    expect(cafe!.properties).toMatchObject({ ...geojson.features[0]!.properties, group: cafe!.properties.group, rating: '4', open: 'true' });
    expect(group(cafe!.properties.group)?.title).toBe('Cafés');
    expect(group(group(cafe!.properties.group)?.parent)?.title).toBe('Food');
    expect(london!.properties).toMatchObject({ title: "'=already quoted", visible: false, image: { id: image.image_id }, rating: '-2.5' });
    expect(group(london!.properties.group)?.title).toBe('Food');
    expect(berlin!.properties).toMatchObject({ title: '＝SUM(A1)', description: '=1+1\nsecond line', cuisine: '+49 30' });
    expect(group(berlin!.properties.group)?.title).toBe('=Tricky');
    expect(tokyo!.properties).toMatchObject({ title: '東京 \t@home', 'marker-symbol': 'rail', color: '#0055ff' });
    expect(tokyo!.properties.group).toBeUndefined();
  });

  it('gives KML that imports back to the same items: every geometry, groups as folders, colours, hidden items, extra properties', async () => {
    const user = await service.newUser();
    const geojson = {
      type: 'FeatureCollection',
      groups: [{ id: 'a', title: 'Walks & <talks>' }, { id: 'b', title: 'Inner', parent: 'a' }],
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85, 35] }, properties: { title: 'Café "Flore"', description: 'Coffee <b>&</b> more', color: '#aa3300', 'marker-symbol': 'cafe', group: 'b', stars: 4 } },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [[2.3, 48.8], [2.4, 48.9]] }, properties: { title: 'Walk', color: '#0055ff', 'stroke-width': 5, group: 'a', visible: false } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[2, 48], [3, 48], [3, 49], [2, 48]], [[2.4, 48.2], [2.6, 48.2], [2.6, 48.4], [2.4, 48.2]]] }, properties: { title: 'Park', color: '#22aa44' } },
        { type: 'Feature', geometry: { type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[2, 2], [3, 3]]] }, properties: { title: 'Two lines' } },
      ],
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Round <trip>', description: 'All of it' }, JSON.stringify(geojson));
    const path = new URL(map.url as string).pathname;
    // The map page's Download section links every download.
    const page = await (await fetch(`${service.url}${path}`)).text();
    for (const file of ['download.geojson', 'download.csv', 'download.xlsx', 'download.kml', 'download.gpx', 'static.png']) expect(page).toContain(`href="${path}/${file}"`);
    const response = await fetch(`${service.url}${path}/download.kml`);
    expect([response.status, response.headers.get('content-type'), response.headers.get('content-disposition')]).toEqual([200, 'application/vnd.google-earth.kml+xml', `attachment; filename="${path.split('/').pop()}.kml"`]);
    const kml = await response.text();
    const back = await service.send('map/upload', user.key, { file_type: 'kml', visibility: 'private' }, kml);
    expect(back.error).toBeUndefined();
    expect(back.import).toEqual({ features: 4, skipped: [] });
    const doc = (await service.call('map/get', user.key, { map_id: back.id })).geojson as { groups: { id: unknown; title: string; parent?: unknown }[]; features: Feature[] };
    const byTitle = Object.fromEntries(doc.features.map((f) => [f.properties.title, f]));
    const group = (id: unknown) => doc.groups.find((g) => g.id === id);
    for (const original of geojson.features) {
      const copy = byTitle[original.properties.title as string]!;
      expect(copy.geometry).toEqual(original.geometry);
    }
    expect(byTitle['Café "Flore"']!.properties).toMatchObject({ description: 'Coffee <b>&</b> more', color: '#aa3300', 'marker-symbol': 'cafe', stars: '4' });
    expect(group(byTitle['Café "Flore"']!.properties.group)?.title).toBe('Inner');
    expect(group(group(byTitle['Café "Flore"']!.properties.group)?.parent)?.title).toBe('Walks & <talks>');
    expect(byTitle.Walk!.properties).toMatchObject({ color: '#0055ff', 'stroke-width': 5, visible: false });
    expect(byTitle.Park!.properties).toMatchObject({ color: '#22aa44' });
    expect(byTitle.Park!.properties.group).toBeUndefined();
  });

  it('writes descriptions into KML as escaped text, which Google Earth shows and never runs as HTML, and reads its own download back to the same text (issue 24, defect 9)', async () => {
    const user = await service.newUser();
    const itemText = '<script>window.__xss = 1</script>\n<img src=x onerror="window.__xss = 1"> & **bold** &amp; \'quoted\'';
    const geojson = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Probe', description: itemText } }] };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Probe', description: '<iframe src="javascript:window.__xss = 1"></iframe>\n*map*' }, JSON.stringify(geojson));
    const kml = await (await fetch(`${service.url}${new URL(map.url as string).pathname}/download.kml`)).text();
    const xmlDecoded = (text: string) => text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!);
    // What Google Earth reads as each description's HTML: text and line breaks, no other tag.
    const descriptions = [...kml.matchAll(/<description>([^<]*)<\/description>/g)].map((match) => xmlDecoded(match[1]!));
    expect(descriptions).toHaveLength(2);
    for (const html of descriptions) expect(html.replace(/<br>\n/g, '')).not.toContain('<');
    expect(descriptions[1]).toBe('&lt;script&gt;window.__xss = 1&lt;/script&gt;<br>\n&lt;img src=x onerror=&quot;window.__xss = 1&quot;&gt; &amp; **bold** &amp;amp; &#39;quoted&#39;');
    const back = await service.send('map/upload', user.key, { file_type: 'kml', visibility: 'private' }, kml);
    const doc = (await service.call('map/get', user.key, { map_id: back.id })).geojson as { features: Feature[] };
    expect(doc.features[0]!.properties.description).toBe(itemText);
  });

  it('gives GPX that imports back: points as waypoints, lines as tracks, areas counted as left out', async () => {
    const user = await service.newUser();
    const geojson = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [6.86, 45.83, 1035.5] }, properties: { title: 'Refuge <1>', description: 'Soup & bed', url: 'https://example.org/refuge', 'marker-symbol': 'shelter' } },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [[6.8, 45.8, 1000], [6.9, 45.9, 1100]] }, properties: { title: 'Climb' } },
        { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[6, 45], [7, 45], [7, 46], [6, 45]]] }, properties: { title: 'Area' } },
      ],
    };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public', title: 'Hike' }, JSON.stringify(geojson));
    const path = new URL(map.url as string).pathname;
    const response = await fetch(`${service.url}${path}/download.gpx`);
    expect([response.status, response.headers.get('content-type'), response.headers.get('x-shapes-left-out')]).toEqual([200, 'application/gpx+xml', '1']);
    const back = await service.send('map/upload', user.key, { file_type: 'gpx', visibility: 'private' }, await response.text());
    expect(back.error).toBeUndefined();
    const doc = (await service.call('map/get', user.key, { map_id: back.id })).geojson as { features: Feature[] };
    const byTitle = Object.fromEntries(doc.features.map((f) => [f.properties.title, f]));
    expect(Object.keys(byTitle).sort()).toEqual(['Climb', 'Refuge <1>']);
    expect(byTitle['Refuge <1>']!.geometry.coordinates).toEqual([6.86, 45.83, 1035.5]);
    expect(byTitle['Refuge <1>']!.properties).toMatchObject({ description: 'Soup & bed', url: 'https://example.org/refuge', sym: 'shelter' });
    expect(byTitle.Climb!.geometry).toEqual({ type: 'LineString', coordinates: [[6.8, 45.8, 1000], [6.9, 45.9, 1100]] });
  });

  it('gives the whole document as GeoJSON, to those who may see the map, and follows a rename', async () => {
    const user = await service.newUser();
    const other = await service.newUser();
    const geojson = { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, properties: { title: 'Line' } }] };
    const map = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'private', title: 'Lines' }, JSON.stringify(geojson));
    const path = new URL(map.url as string).pathname;
    const mine = await fetch(`${service.url}${path}/download.geojson`, { headers: { authorization: `Token ${user.key}` } });
    expect([mine.status, mine.headers.get('content-disposition')]).toEqual([200, 'attachment; filename="lines.geojson"']);
    expect(((await mine.json()) as { features: Feature[] }).features[0]!.geometry.type).toBe('LineString');
    expect((await fetch(`${service.url}${path}/download.geojson`, { headers: { authorization: `Token ${other.key}` } })).status).toBe(404);
    expect((await fetch(`${service.url}${path}/download.csv`)).status).toBe(404);
    expect((await fetch(`${service.url}${path}/download.xlsx`, { headers: { authorization: `Token ${other.key}` } })).status).toBe(404);
    await service.call('map/update', user.key, { map_id: map.id, short_name: 'moved-lines' });
    const moved = await fetch(`${service.url}${path}/download.csv`, { headers: { authorization: `Token ${user.key}` }, redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([302, `/${user.username}/moved-lines/download.csv`]);
    const movedXlsx = await fetch(`${service.url}${path}/download.xlsx`, { headers: { authorization: `Token ${user.key}` }, redirect: 'manual' });
    expect([movedXlsx.status, movedXlsx.headers.get('location')]).toEqual([302, `/${user.username}/moved-lines/download.xlsx`]);
  });
});
