// Property-based tests of the whole API from its served OpenAPI document: schemathesis (PyPI,
// installed into .tools/ on first use) generates valid and invalid requests for every operation,
// chains them through the document's links, and checks every answer against the document and
// the checks of test/schemathesis/ (schemathesis.toml, hooks.py). Zero failures is the bar.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePipPackage } from '../../scripts/pipTools.js';
import { startTestService, type TestService } from './harness.js';

const SCHEMATHESIS = 'schemathesis==4.32.5';
const CONFIG_DIR = fileURLToPath(new URL('../schemathesis/', import.meta.url));

let service: TestService;
let tools: string;
let dir: string;
beforeAll(async () => {
  tools = ensurePipPackage('schemathesis', SCHEMATHESIS);
  service = await startTestService();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-schemathesis-'));
}, 300_000);
afterAll(async () => {
  await service.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface HeaderParameter {
  content?: Record<string, { example?: unknown }>;
  example?: unknown;
}

interface Link {
  operationId: string;
  requestBody?: unknown;
  parameters?: Record<string, string>;
  'x-arguments'?: { header: string; values: Record<string, string> };
}

/**
 * The served document, with one addition for the test: a link into a file operation says in
 * `x-arguments` which argument of its JSON header gets the value, which OpenAPI links cannot
 * write; the test carries the map id in a header of its own (hooks.py moves it in place).
 */
function withLinkCarriers(document: { paths: Record<string, { post: { parameters?: HeaderParameter[]; responses: Record<string, { links?: Record<string, Link> }> } }> }) {
  for (const item of Object.values(document.paths)) {
    // schemathesis 4.32.5 reads a header's example where OpenAPI 3.0 put it, on the parameter; in
    // 3.1 a parameter described by `content` has it in the media type, where schemathesis encodes
    // the object twice (a JSON string of JSON). Moved back for it.
    for (const parameter of item.post.parameters ?? []) {
      const media = parameter.content?.['application/json'];
      if (media && 'example' in media) {
        parameter.example = media.example;
        delete media.example;
      }
    }
    for (const link of Object.values(item.post.responses['200']?.links ?? {})) {
      const mapId = link['x-arguments']?.values.map_id;
      if (mapId) link.parameters = { 'header.X-Link-Map-Id': mapId };
    }
  }
  return document;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('schemathesis against the served OpenAPI document', () => {
  it('finds no failure in any operation, with every check', async () => {
    const { key } = await service.newUser();
    const document = withLinkCarriers((await (await fetch(`${service.url}/openapi.json`)).json()) as Parameters<typeof withLinkCarriers>[0]);
    const documentFile = path.join(dir, 'openapi.json');
    fs.writeFileSync(documentFile, JSON.stringify(document));
    const { code, output } = await run(
      'python3',
      ['-m', 'schemathesis.cli', 'run', documentFile, '--url', service.url, '--report', 'junit', '--report-dir', dir, '--no-color'],
      { cwd: CONFIG_DIR, env: { ...process.env, PYTHONPATH: tools, MAP_API_KEY: key, PYTHONDONTWRITEBYTECODE: '1' } },
    );
    if (code !== 0 || process.env.SCHEMATHESIS_OUTPUT) console.log(output);
    expect(code).toBe(0);
    // It did run every operation and phase.
    expect(output).toMatch(/Examples .*\n?.*Coverage .*\n?.*Fuzzing .*\n?.*Stateful/s);
    const tested = /(\d+) test cases? generated/.exec(output) ?? /(\d+) generated/.exec(output);
    expect(tested, output.slice(-2000)).not.toBeNull();
    expect(Number(tested![1])).toBeGreaterThan(200);
    expect(service.internalErrors).toEqual([]);
  }, 600_000);
});
