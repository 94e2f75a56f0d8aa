// The operator CLI and `npm start` as a newcomer uses them: real processes, real ports.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../lib/freePort.js';
import { waitFor } from '../../lib/waitFor.js';

const run = promisify(execFile);
const tsx = path.resolve('node_modules/.bin/tsx');
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-cli-'));
  dirs.push(dir);
  return dir;
};

async function admin(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(tsx, ['scripts/admin.ts', ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('operator CLI on the database directly', () => {
  const databaseUrl = inject('databaseUrl');
  const env = (): Record<string, string> => (databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: tempDir() });
  const name = `cli${Date.now().toString(36)}`;

  it('creates a user and a key, lists and revokes keys, and explains mistakes', async () => {
    const e = env();
    const created = await admin(e, 'create-user', '--username', name, '--email', `${name}@example.com`, '--password', 'long enough');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Created user ${name}`);

    const key = await admin(e, 'create-api-key', '--username', name, '--name', 'laptop');
    expect(key.code).toBe(0);
    const lastLine = key.stdout.trim().split('\n').at(-1)!;
    expect(lastLine).toMatch(/^mps_[A-Za-z0-9]{10}_[A-Za-z0-9_-]{43}$/);

    expect((await admin(e, 'verify-email', '--username', name)).code).toBe(0);
    const listed = await admin(e, 'list-keys', '--username', name);
    expect(listed.stdout).toContain(`${lastLine.slice(0, 14)}…  active`);
    expect(listed.stdout).not.toContain(lastLine);

    expect((await admin(e, 'revoke-key', '--username', name, '--key-prefix', lastLine.slice(0, 14))).code).toBe(0);
    expect((await admin(e, 'list-keys', '--username', name)).stdout).toContain('revoked');

    const again = await admin(e, 'create-user', '--username', name.toUpperCase(), '--email', 'other@example.com', '--password', 'long enough');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already taken');
    const weak = await admin(e, 'create-user', '--username', 'x y', '--email', 'nope', '--password', 'short');
    expect(weak.stderr).toMatch(/Error: .*username/);
    expect((await admin(e, 'create-api-key', '--username', 'nobody-here')).stderr).toContain('No account');
    expect((await admin(e, 'frobnicate')).stderr).toContain('unknown command');
    const saved = await admin(e, 'set-provider-key', '--username', name, '--kind', 'tile_provider', '--key', 'thunder-key-0123456789');
    expect([saved.code, saved.stdout.trim()]).toEqual([0, `Saved the tile_provider provider key of ${name} (thu…6789).`]);
  }, 180_000); // ten CLI runs, each starting tsx and (on PGlite) its database: 37–46 s alone, over 60 s beside other test files
});

describe('npm start (embedded)', () => {
  it('starts PGlite, a Temporal dev server, the API and a worker; serves the CLI and the API; stops on Ctrl-C', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: '', TEMPORAL_ADDRESS: '' };
    const child = spawn(tsx, ['scripts/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    try {
      await waitFor('the embedded service', async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200, 90_000);
      expect(output).toMatch(/Web UI: http:\/\/127\.0\.0\.1:\d+/);
      // No street map archive: one line says how to add streets.
      expect(output.split('\n').filter((line) => line.includes('set BASEMAP_TILES to a PMTiles archive'))).toHaveLength(1);

      // The CLI hands its commands to the running service (PGlite belongs to that process).
      const cliEnv = { DATA_DIR: dataDir, DATABASE_URL: '' };
      expect((await admin(cliEnv, 'create-user', '--username', 'newcomer', '--email', 'n@example.com', '--password', 'long enough', '--verified')).code).toBe(0);
      const key = (await admin(cliEnv, 'create-api-key', '--username', 'newcomer')).stdout.trim().split('\n').at(-1)!;

      const upload = await fetch(`http://127.0.0.1:${port}/api/1/map/upload`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'service-api-arg': '{"file_type":"empty","visibility":"public","title":"First"}' },
      });
      expect(await upload.json()).toMatchObject({ url: `http://localhost:${port}/newcomer/first`, owner: 'newcomer' });

      // Its worker polls the media task queue too; media-gc runs the cleanup through the service.
      const png = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#ff000080' } }).png().toBuffer();
      const image = await fetch(`http://127.0.0.1:${port}/api/1/image/upload`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'service-api-arg': '{"file_type":"png"}' },
        body: png,
      });
      const { image_id } = (await image.json()) as { image_id: string };
      expect(image_id).toMatch(/^[0-9A-Za-z]{16}$/);
      expect((await admin(cliEnv, 'media-gc')).stdout.trim()).toBe(''); // within the 24-hour grace
      expect((await admin(cliEnv, 'media-gc', '--grace', 'soon')).stderr).toContain('--grace must be a duration');
      const gc = await admin(cliEnv, 'media-gc', '--grace', '0s');
      expect([gc.code, gc.stdout.trim()]).toEqual([0, image_id]);
    } finally {
      child.kill('SIGINT');
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(0);
    }
    expect(fs.existsSync(path.join(dataDir, 'embedded-service.json'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'temporal.sqlite'))).toBe(true);
    // The Temporal dev server it started is gone too.
    const left = await run('pgrep', ['-f', path.join(dataDir, 'temporal.sqlite')]).catch((e: { code: number }) => e.code);
    expect(left).toBe(1);
  }, 240_000); // the service's start (its own wait allows 90 s) and four CLI runs: over 60 s on a loaded CI machine
});
