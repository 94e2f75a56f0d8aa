// The API reference's ready-to-copy calls (api/codeSamples.ts, x-codeSamples of /openapi.json) run
// as a reader would run them — curl in bash, Python with requests, JavaScript in Node — against
// the service with a real key and the operation's example arguments and file: each must reach its
// operation as a well-formed, authorised request. The examples name a map that does not exist, so
// map_not_found is a fine answer; a refusal of the request's shape or key is not.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePipPackage } from '../../scripts/pipTools.js';
import { startTestService, type TestService } from './harness.js';

const run = promisify(execFile);
/** Answers that say the call itself was wrong, not the example's map or feature. */
const MALFORMED = ['missing_api_key', 'invalid_api_key', 'invalid_json', 'invalid_arguments', 'unknown_endpoint', 'method_not_allowed', 'unsupported_file_type', 'missing_file'];

let service: TestService;
let dir: string;
let key: string;
let pythonPath: string;

interface Sample {
  lang: string;
  source: string;
}

beforeAll(async () => {
  pythonPath = ensurePipPackage('requests', 'requests==2.32.3');
  service = await startTestService();
  key = (await service.newUser()).key;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-code-samples-'));
  // The files the examples send, by their file_type.
  fs.writeFileSync(path.join(dir, 'example.geojson'), JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.3376, 48.8606] }, properties: { title: 'Louvre' } }] }));
  fs.writeFileSync(path.join(dir, 'example.csv'), 'lat,lon,title\n48.8606,2.3376,Louvre\n');
  fs.writeFileSync(path.join(dir, 'example.jpg'), await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } }).jpeg().toBuffer());
  fs.writeFileSync(path.join(dir, 'example.png'), await sharp({ create: { width: 40, height: 40, channels: 4, background: '#cc3366' } }).png().toBuffer());
}, 300_000);
afterAll(async () => {
  await service?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function answerOf(sample: Sample): Promise<Record<string, unknown>> {
  const env = { ...process.env, API_KEY: key, PYTHONPATH: pythonPath };
  const file = path.join(dir, { Shell: 'call.sh', Python: 'call.py', JavaScript: 'call.mjs' }[sample.lang]!);
  fs.writeFileSync(file, sample.source);
  const [command, args] = { Shell: ['bash', [file]], Python: ['python3', [file]], JavaScript: [process.execPath, [file]] }[sample.lang] as [string, string[]];
  const { stdout } = await run(command, args, { cwd: dir, env, timeout: 60_000 });
  if (sample.lang === 'Shell') return JSON.parse(stdout);
  // Python and JavaScript print the answer, or stop with "<error_code>: <error>".
  return { printed: stdout };
}

describe('the reference’s code samples', () => {
  it('reach every operation as well-formed, authorised calls in curl, Python and JavaScript', async () => {
    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as { paths: Record<string, { post: { 'x-codeSamples': Sample[] } }> };
    let ran = 0;
    for (const [route, item] of Object.entries(document.paths)) {
      for (const sample of item.post['x-codeSamples']) {
        let answer: Record<string, unknown>;
        try {
          answer = await answerOf(sample);
        } catch (error) {
          // Python's RuntimeError and JavaScript's Error carry "<error_code>: <message>".
          const text = String((error as { stderr?: string }).stderr ?? error);
          const code = /(?:RuntimeError|Error): ([a-z_]+): /.exec(text)?.[1];
          expect(code, `${route} ${sample.lang}: ${text.slice(-400)}`).toBeDefined();
          answer = { error_code: code };
        }
        expect(MALFORMED, `${route} ${sample.lang}: ${JSON.stringify(answer).slice(0, 300)}`).not.toContain(answer.error_code);
        ran++;
      }
    }
    expect(ran).toBe(Object.keys(document.paths).length * 3);
  }, 300_000);
});
