import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.js';
import { makeTestCertificates } from '../support/testCertificates.js';

describe('loadConfig', () => {
  it('has embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      temporalAddress: undefined,
      deployment: 'standard',
      maxUploadBytes: 15 * 1024 * 1024,
      processingTimeoutMs: 120_000,
      taskQueue: 'maps',
    });
  });

  it('draws one static image at a time unless RENDER_CONCURRENCY says more, and refuses 0', () => {
    expect(loadConfig({}).renderConcurrency).toBe(1);
    expect(loadConfig({ RENDER_CONCURRENCY: '2' }).renderConcurrency).toBe(2);
    expect(() => loadConfig({ RENDER_CONCURRENCY: '0' })).toThrow(ConfigError);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from a given one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://maps.example.com/' }).publicUrl).toBe('https://maps.example.com');
  });

  it('lifts the upload size and processing time limits in enterprise deployments', () => {
    const config = loadConfig({ DEPLOYMENT: 'enterprise', MAX_UPLOAD_MB: '1' });
    expect(config.maxUploadBytes).toBeNull();
    expect(config.processingTimeoutMs).toBeNull();
  });

  it('takes the limits from the environment', () => {
    const config = loadConfig({ MAX_UPLOAD_MB: '2', PROCESSING_TIMEOUT_SECONDS: '5' });
    expect(config.maxUploadBytes).toBe(2 * 1024 * 1024);
    expect(config.processingTimeoutMs).toBe(5000);
  });

  it("reads the service's own provider keys and the heavy-traffic limit", () => {
    const config = loadConfig({ PROVIDER_KEY_MAP_PLATFORM: ' pk.abcdefghijklmnopqrstuvwxyz ', PROVIDER_KEY_TILE_PROVIDER: 'tile-key-1234', HEAVY_TRAFFIC_VIEWS: '50' });
    expect(config.serviceProviderKeys).toEqual({ map_platform: 'pk.abcdefghijklmnopqrstuvwxyz', tile_provider: 'tile-key-1234' });
    expect(config.heavyTrafficViews).toBe(50);
    expect(loadConfig({}).serviceProviderKeys).toEqual({});
    expect(loadConfig({}).heavyTrafficViews).toBe(1000);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).databaseUrl).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['TEMPORAL_ADDRESS', 'localhost'],
    ['DEPLOYMENT', 'cloud'],
    ['MAX_UPLOAD_MB', '-1'],
    ['PROCESSING_TIMEOUT_SECONDS', '0'],
    ['HEAVY_TRAFFIC_VIEWS', '0'],
    ['PROVIDER_KEY_GIS_PLATFORM', 'short'],
  ])('stops with a message naming %s when it is %j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it('reads WEBHOOK_CA_FILE at start: its certificates kept, a missing file, one without certificates or a broken one refused naming it', () => {
    expect(loadConfig({}).webhookCa).toBeUndefined();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-ca-config-'));
    try {
      const { caPem } = makeTestCertificates();
      const file = (name: string, text: string) => {
        fs.writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      expect(loadConfig({ WEBHOOK_CA_FILE: file('ca.pem', `# our CA\n${caPem}`) }).webhookCa).toBe(caPem.trim());
      expect(() => loadConfig({ WEBHOOK_CA_FILE: path.join(dir, 'missing.pem') })).toThrow(/WEBHOOK_CA_FILE: the file .*missing\.pem cannot be read \(ENOENT\)/);
      expect(() => loadConfig({ WEBHOOK_CA_FILE: file('empty.pem', 'not a certificate') })).toThrow(/WEBHOOK_CA_FILE: .*empty\.pem holds no PEM certificate/);
      const broken = caPem.replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA');
      expect(() => loadConfig({ WEBHOOK_CA_FILE: file('broken.pem', broken) })).toThrow(/certificate 1 in .*broken\.pem is not a valid X\.509 certificate/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
