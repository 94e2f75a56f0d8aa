// One side of the XLSX download benchmark (bench/xlsxDownload.ts), alone in its own process so
// that its peak memory is its own: makes the table of a map of points (export/table.ts, what the
// download route does once the document is read) and writes it one warm-up and `runs` more
// times, then prints one line `RESULT {json}`: wall and CPU times, the file's size, the resident
// memory when idle (modules loaded, features made), the process's peak (`maxRSS`) and the
// longest time the event loop was held.
//   node --import tsx bench/xlsxDownloadSide.ts <side> <runs> <points>
// Sides: `csv` (the CSV download), `xlsx` (the XLSX download: lib/formats/export/xlsx.ts),
// `exceljs-shared-strings` (the same streaming writer with exceljs's shared-strings table) and
// `exceljs-workbook` (exceljs's whole-workbook writer, `new Workbook()` + `xlsx.writeBuffer()`).
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { csvOfTable, pointTable, type PointTable } from '../lib/formats/export/table.js';
import { xlsxOfTable } from '../lib/formats/export/xlsx.js';
import type { MapFeature, MapGroup } from '../lib/geojson/model.js';
import { ICONS, mapFeatures } from './generate/mapContent.js';

type Side = 'csv' | 'xlsx' | 'exceljs-shared-strings' | 'exceljs-workbook';
const [side, runsArg, pointsArg] = process.argv.slice(2) as [Side, string, string];
const runs = Number(runsArg);

// The benchmark's points (titles, icons, colours for half of them) with what a table download
// also carries: a description, a group, a number and a text property of their own.
const groups: MapGroup[] = ICONS.map((icon, index) => ({ id: index + 1, title: icon }));
const features = mapFeatures({ points: Number(pointsArg), lines: 0, linePoints: 0, polygons: 0, polygonVertices: 0, decimals: 5, pointColors: 0.5 }).map((feature, index) => {
  const icon = feature.properties['marker-symbol'] as (typeof ICONS)[number];
  const properties = {
    ...feature.properties,
    description: `Open 9–18, closed on Mondays. Item ${index + 1}.`,
    group: ICONS.indexOf(icon) + 1,
    rating: (index % 50) / 10,
    phone: `+33 1 ${String(index).padStart(8, '0')}`,
  };
  return { ...feature, properties } as unknown as MapFeature;
});

/** The whole-workbook writer, formatted as ours is: every cell an object until the end. */
async function wholeWorkbook(table: PointTable): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Points', { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  sheet.addRow(table.header).font = { bold: true };
  for (const row of table.rows) sheet.addRow(row.map((cell) => (cell === '' ? null : cell)));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The streaming writer as ours uses it, but with text in the shared-strings table. */
async function sharedStrings(table: PointTable): Promise<Buffer> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise((resolve) => output.on('end', resolve));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: true });
  const sheet = book.addWorksheet('Points', { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  const header = sheet.addRow(table.header);
  header.font = { bold: true };
  header.commit();
  const plain = {};
  for (const cells of table.rows) {
    const row = sheet.addRow(cells.map((cell) => (cell === '' ? null : cell)));
    row.eachCell((cell) => {
      cell.style = plain;
    });
    row.commit();
  }
  sheet.commit();
  await book.commit();
  await finished;
  return Buffer.concat(chunks);
}

const write = async (): Promise<number> => {
  const table = pointTable(features, groups, 'https://maps.example.org');
  if (side === 'csv') return Buffer.byteLength(csvOfTable(table));
  if (side === 'xlsx') return (await xlsxOfTable(table)).length;
  return (side === 'exceljs-shared-strings' ? await sharedStrings(table) : await wholeWorkbook(table)).length;
};

const idleRss = process.memoryUsage.rss();
let bytes = await write();
// The longest the event loop was held (other requests of the service wait that long): the
// longest gap between the turns of a 5 ms timer.
let lastTurn = performance.now();
let stallMs = 0;
const timer = setInterval(() => {
  const now = performance.now();
  stallMs = Math.max(stallMs, now - lastTurn);
  lastTurn = now;
}, 5);
const ms: number[] = [];
const cpuMs: number[] = [];
for (let i = 0; i < runs; i += 1) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  bytes = await write();
  const used = process.cpuUsage(cpu);
  ms.push(performance.now() - started);
  cpuMs.push((used.user + used.system) / 1000);
  await new Promise((resolve) => setTimeout(resolve, 20)); // the timer's turn after the run
}
clearInterval(timer);
const peakRss = process.resourceUsage().maxRSS * 1024;
console.log(`RESULT ${JSON.stringify({ side, points: Number(pointsArg), ms, cpuMs, bytes, idleRss, peakRss, stallMs })}`);
