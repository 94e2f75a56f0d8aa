// Back-pressure on the rows a parser thread streams (activities/rowCredit.ts): a real parser
// thread (ParserPool) parsing a CSV of many chunks, read by RowsFromThread as a COPY would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParserPool } from '../../activities/parserPool.js';
import { ROW_CREDIT } from '../../activities/rowCredit.js';
import { RowsFromThread, startStreamingParse } from '../../activities/rowsFromThread.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-rows-thread-'));
const pool = new ParserPool();
afterAll(async () => {
  await pool.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Rows of about 170 bytes: 40,000 of them make about 7 MB of row lines, over 100 chunks. */
const ROWS = 40_000;
const csv = path.join(dir, 'points.csv');
fs.writeFileSync(
  csv,
  ['name,description,latitude,longitude', ...Array.from({ length: ROWS }, (_, i) => `Point ${i},${'a description of this point '.repeat(4)}${i},${(i % 80) - 40}.5,${(i % 300) - 150}.25`)].join('\n'),
);

let files = 0;
const task = (rows: RowsFromThread) => {
  const outputFile = path.join(dir, `out-${files++}.ndjson`);
  fs.writeFileSync(outputFile, '');
  return { fileType: 'csv' as const, inputFile: csv, outputFile, options: { publicUrl: 'http://localhost' }, rows: { port: rows.port, credit: rows.credit } };
};

const taskWithoutRows = () => {
  const { rows: _rows, ...rest } = task(new RowsFromThread());
  return rest;
};

/** Polls (every few ms) until `condition` holds; fails after 20 s (a bound on the wait, not a speed check). */
async function until(condition: () => boolean): Promise<void> {
  const giveUp = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > giveUp) throw new Error('the parser thread never waited for the reader, nor ended');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const lineCount = (chunks: Buffer[]) => chunks.reduce((count, chunk) => count + chunk.toString().split('\n').length - 1, 0);

describe('rows streamed from a parser thread', () => {
  it('holds the thread back while the reader is slow: never more than ROW_CREDIT chunks wait, and every row arrives', async () => {
    const rows = new RowsFromThread();
    const input = task(rows);
    let done = false;
    const parsing = pool.parse(input, new AbortController().signal).finally(() => (done = true));
    const lines = rows.lines();
    const chunks: Buffer[] = [];
    let waits = 0;
    let mostBuffered = 0;
    for (;;) {
      // Before each read the thread gets as far ahead as it may: until it waits for the reader, or is done.
      await until(() => rows.threadWaits || done);
      if (rows.threadWaits) waits++;
      mostBuffered = Math.max(mostBuffered, rows.buffered);
      const next = await lines.next();
      if (next.done) break;
      chunks.push(Buffer.from(next.value));
    }
    const parsed = await parsing;
    rows.close();
    expect(mostBuffered).toBeGreaterThan(0);
    expect(mostBuffered).toBeLessThanOrEqual(ROW_CREDIT);
    expect(chunks.length).toBeGreaterThan(4 * ROW_CREDIT);
    expect(waits).toBeGreaterThan(chunks.length - 2 * ROW_CREDIT);
    // The rows as the document file has them (its row lines come first), in order and whole.
    expect(parsed.features).toBe(ROWS);
    expect(lineCount(chunks)).toBe(ROWS);
    const all = Buffer.concat(chunks);
    expect(all.length).toBe(parsed.rowBytes);
    expect(all.equals(fs.readFileSync(input.outputFile).subarray(0, parsed.rowBytes))).toBe(true);
  });

  it('ends a thread waiting for credit when the parse is aborted (a cancelled activity), the reader still there', async () => {
    const rows = new RowsFromThread();
    const abort = new AbortController();
    const parsing = pool.parse(task(rows), abort.signal);
    parsing.catch(() => {});
    await until(() => rows.threadWaits);
    abort.abort(new Error('stopped')); // the pool ends the thread inside its Atomics.wait
    await expect(parsing).rejects.toThrow('stopped');
    rows.close();
  });

  it('lets a thread waiting for credit end when the reader closes and the parse is aborted', async () => {
    const rows = new RowsFromThread();
    const abort = new AbortController();
    const parsing = pool.parse(task(rows), abort.signal);
    parsing.catch(() => {});
    await until(() => rows.threadWaits);
    rows.close();
    abort.abort(new Error('stopped'));
    await expect(parsing).rejects.toThrow('stopped');
  });

  it('lets the parse finish unread when the lines are skipped (a retry whose map is written)', async () => {
    const rows = new RowsFromThread();
    const parsing = pool.parse(task(rows), new AbortController().signal);
    await until(() => rows.threadWaits);
    rows.skip();
    expect((await parsing).features).toBe(ROWS);
    expect(rows.buffered).toBe(0);
    rows.close();
  });

  it('lets the parse finish when the reader stops early, and ends it whole (startStreamingParse)', async () => {
    const parse = startStreamingParse(pool, taskWithoutRows(), { signals: [] });
    const first = await parse.lines.next();
    expect(first.done).toBe(false);
    await parse.lines.return(undefined); // as a COPY that failed stops reading
    expect((await parse.parsing).features).toBe(ROWS);
    await parse.end();
  });

  it('ends a parse that waits for a reader that never reads (failWith, as a write that failed)', async () => {
    const parse = startStreamingParse(pool, taskWithoutRows(), { signals: [] });
    const failure = new Error('the write failed');
    // No line is read: the thread fills its credit and waits; the failed write ends it.
    await expect(parse.failWith(failure)).resolves.toBe(failure);
    await expect(parse.parsing).rejects.toBeDefined();
  });
});
