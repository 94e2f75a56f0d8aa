// image/upload of a 12-megapixel JPEG and PNG, end to end through the API of a fresh embedded
// service on PostgreSQL, beside libvips' own `vipsthumbnail` making the same stored sizes from
// the same file (boxes 2048, 1024, 512 and 256, JPEG quality 82, one run per size), in the same
// run. Prints the time ratio (ours / vipsthumbnail; the target is at most 0.8 for the JPEG and
// 1.0 for the PNG) and the service's peak memory above idle. Inputs and vipsthumbnail's outputs
// are written to bench/out/images/ (not committed).
import { execFileSync } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../lib/waitFor.js';
import { photoJpeg, photoPng } from './generate/photo.js';
import { rssOf, startBenchService, withPeakRss, type BenchService } from './service.js';
import { summarize } from './stats.js';
import { uploadTimeline } from './uploadTimeline.js';

const WIDTH = 4000;
const HEIGHT = 3000;
/** The boxes image/upload stores (lib/media/processImage.ts IMAGE_BOXES). */
const BOXES = [2048, 1024, 512, 256];
const RUNS = 5;
const MB = 1024 * 1024;
const OUT = path.resolve('bench/out/images');

interface Case {
  name: string;
  file: string;
  fileType: 'jpg' | 'png';
  /** The target ratio ours / vipsthumbnail. */
  target: number;
}

function ensureVipsthumbnail(): string {
  try {
    return execFileSync('vipsthumbnail', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    console.log('Installing libvips-tools (vipsthumbnail) for the comparison …');
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libvips-tools'], { stdio: 'inherit' });
    return execFileSync('vipsthumbnail', ['--version'], { encoding: 'utf8' }).trim();
  }
}

async function writeInputs(): Promise<Case[]> {
  fs.mkdirSync(OUT, { recursive: true });
  const jpeg = path.join(OUT, 'photo-12mp.jpg');
  const png = path.join(OUT, 'photo-12mp.png');
  // Made again every run (about 10 s of JavaScript), so a change to the generator is never
  // compared with files of the old one; the files are the same from run to run.
  fs.writeFileSync(jpeg, await photoJpeg(WIDTH, HEIGHT));
  fs.writeFileSync(png, await photoPng(WIDTH, HEIGHT));
  return [
    { name: 'JPEG 12 MP', file: jpeg, fileType: 'jpg', target: 0.8 },
    { name: 'PNG 12 MP', file: png, fileType: 'png', target: 1.0 },
  ];
}

/**
 * The stored sizes made by vipsthumbnail, one process per size, as a service built on the
 * command would: fit inside the box, JPEG at quality 82 without metadata (`strip`; libvips
 * 8.15 and later call it `keep=none` and still take `strip`). Returns milliseconds.
 */
function vipsthumbnailSet(c: Case): number {
  const started = performance.now();
  for (const box of BOXES) {
    execFileSync('vipsthumbnail', [c.file, '-s', String(box), '-o', path.join(OUT, `vipsthumbnail-${c.fileType}-s${box}.jpg[Q=82,strip]`)], {
      stdio: 'ignore',
    });
  }
  return performance.now() - started;
}

/** When an upload was sent and answered, on the machine's clock (epoch milliseconds, as Temporal's). */
interface Span {
  sent: number;
  answered: number;
}

const now = () => performance.timeOrigin + performance.now();

async function upload(service: BenchService, c: Case, bytes: Buffer): Promise<Span> {
  const sent = now();
  const answer = await service.send('image/upload', { file_type: c.fileType }, bytes);
  const answered = now();
  if (answer.width !== WIDTH || answer.height !== HEIGHT) throw new Error(`image/upload answered ${answer.width}×${answer.height}`);
  return { sent, answered };
}

const millisOf = (time: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;

/**
 * Each upload's time split by the times of its workflow (the uploads ran one after the other,
 * so the n-th workflow started is the n-th upload): the API's before the workflow starts (the
 * body into the blob store, the start call), the media activity's run (processing and storing),
 * the rest of the workflow (its tasks, the activity's dispatch, the request file's removal),
 * and the answer's way back. Medians in milliseconds.
 */
async function splitUploads(address: string, since: Date, spans: Span[]): Promise<Record<string, number>> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection });
    // Visibility may lag the last workflow's close by a moment.
    let runs: { start: number; close: number; activity: number }[] = [];
    await waitFor('the upload workflows in Temporal\'s list', async () => {
      runs = [];
      for await (const workflow of client.workflow.list({ query: `WorkflowType = 'uploadMedia' AND StartTime >= '${since.toISOString()}'` })) {
        const history = await client.workflow.getHandle(workflow.workflowId, workflow.runId).fetchHistory();
        const events = history.events ?? [];
        const started = events.find((e) => e.activityTaskStartedEventAttributes);
        const completed = events.find((e) => e.activityTaskCompletedEventAttributes);
        runs.push({
          start: workflow.startTime.getTime(),
          close: workflow.closeTime?.getTime() ?? Number.NaN,
          activity: millisOf(completed?.eventTime) - millisOf(started?.eventTime),
        });
      }
      return runs.length === spans.length && runs.every((run) => Number.isFinite(run.close));
    }, 5_000);
    runs.sort((a, b) => a.start - b.start);
    const pieces = { 'API before the workflow': [] as number[], 'media activity': [] as number[], 'rest of the workflow': [] as number[], 'answer back': [] as number[] };
    runs.forEach((run, i) => {
      const span = spans[i]!;
      pieces['API before the workflow'].push(run.start - span.sent);
      pieces['media activity'].push(run.activity);
      pieces['rest of the workflow'].push(run.close - run.start - run.activity);
      pieces['answer back'].push(span.answered - run.close);
    });
    return Object.fromEntries(Object.entries(pieces).map(([name, values]) => [name, Math.round(summarize(values).median)]));
  } finally {
    await connection.close();
  }
}

async function benchCase(c: Case) {
  const bytes = fs.readFileSync(c.file);
  // A fresh service per file, warmed up by one small map upload (as the imports benchmark), so
  // "idle" is really idle; its first image upload is the warm-up of the comparison.
  const service = await startBenchService('pg');
  try {
    await service.send('map/upload', { file_type: 'geojson', visibility: 'private' }, '{"type":"Point","coordinates":[1,2]}');
    const idle = rssOf(service.pid);
    let peak = idle;
    const warm = await withPeakRss(service.pid, () => upload(service, c, bytes));
    peak = Math.max(peak, warm.peak);
    vipsthumbnailSet(c);
    // Alternately, so a machine that slows down or speeds up weighs on both alike.
    const since = new Date(Date.now() - 1);
    const ours: number[] = [];
    const spans: Span[] = [];
    const reference: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      reference.push(vipsthumbnailSet(c));
      const measured = await withPeakRss(service.pid, () => upload(service, c, bytes));
      ours.push(measured.result.answered - measured.result.sent);
      spans.push(measured.result);
      peak = Math.max(peak, measured.peak);
    }
    // The peak counts the warm-up too: a fresh process's first image is what memory must allow.
    const afterRss = rssOf(service.pid);
    const split = await splitUploads(service.temporalAddress, since, spans);
    // The same inside Temporal, event by event (medians over the five workflows).
    const timeline = await uploadTimeline(service.temporalAddress, since, 'uploadMedia');
    const vips = summarize(reference).median / 1000;
    const seconds = summarize(ours).median / 1000;
    return {
      row: {
        file: c.name,
        size_mb: +(bytes.length / MB).toFixed(1),
        vipsthumbnail_s: +vips.toFixed(3),
        ours_s: +seconds.toFixed(3),
        ratio: +(seconds / vips).toFixed(2),
        target: c.target,
        peak_mb_above_idle: +((peak - idle) / MB).toFixed(0),
      },
      detail: {
        vipsthumbnail_ms: reference.map((ms) => Math.round(ms)),
        ours_ms: ours.map((ms) => Math.round(ms)),
        idle_rss_mb: +(idle / MB).toFixed(0),
        rss_after_mb_above_idle: +((afterRss - idle) / MB).toFixed(0),
        split_ms: split,
        timeline_ms: Object.fromEntries(Object.entries(timeline).map(([label, ms]) => [label, Math.round(ms)])),
      },
    };
  } finally {
    await service.stop();
  }
}

export async function benchImageUpload(): Promise<{ vipsthumbnail: string; rows: Record<string, unknown>[]; details: Record<string, unknown> }> {
  const vipsthumbnail = ensureVipsthumbnail();
  const cases = await writeInputs();
  // `npm run bench -- images png` runs the files whose name starts with the given word.
  const only = process.argv[3]?.toLowerCase();
  const rows: Record<string, unknown>[] = [];
  const details: Record<string, unknown> = {};
  for (const c of cases.filter((c) => !only || c.name.toLowerCase().startsWith(only))) {
    try {
      const { row, detail } = await benchCase(c);
      rows.push(row);
      details[c.name] = detail;
    } catch (error) {
      rows.push({ file: c.name, error: (error as Error).message });
    }
  }
  return { vipsthumbnail, rows, details };
}
