// A real S3-compatible server for the tests: moto's S3 server (PyPI `moto`, installed into .tools/
// on first use like the Temporal CLI; never a run-time download from elsewhere) on 127.0.0.1 and
// a free port, with a bucket of its own and a clock the test can set back (moto_s3_server.py).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { waitFor } from '../../lib/waitFor.js';
import { freePort } from '../../lib/freePort.js';
import { ensurePipPackage, TOOLS_DIR, withDirectoryLock } from '../../scripts/pipTools.js';

/** moto's S3 service and the web server its `moto.server` needs (not the whole `[server]` extra: 290 MB). */
export const MOTO_REQUIREMENTS = ['moto[s3]==5.2.5', 'flask==3.1.2', 'flask-cors==6.0.1'];
const LAUNCHER = fileURLToPath(new URL('./moto_s3_server.py', import.meta.url));
/** moto accepts any credentials; the tests send these (the SDK wants some). */
export const TEST_CREDENTIALS = { accessKeyId: 'test-access-key', secretAccessKey: 'test-secret-key' };

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** A client of the server (for checks the BlobStore interface does not offer). */
  client: S3Client;
  /** The environment that points the service at the bucket (BLOB_STORE=s3://bucket/prefix …). */
  env(prefix: string): Record<string, string>;
  /** Objects written from now on get a LastModified this far from the real time. */
  setClock(offsetMs: number): void;
  stop(): Promise<void>;
}

/** Installs moto once, also when two test files ask at the same time (pip into one folder twice breaks it). */
function ensureMoto(): string {
  return withDirectoryLock(path.join(TOOLS_DIR, 'moto-s3.lock'), () => ensurePipPackage('moto-s3', MOTO_REQUIREMENTS));
}

export async function startS3Server(): Promise<S3TestServer> {
  const pythonPath = ensureMoto();
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-moto-'));
  const clockFile = path.join(dir, 'clock');
  const child: ChildProcess = spawn('python3', [LAUNCHER, '-H', '127.0.0.1', '-p', String(port)], {
    env: { ...process.env, PYTHONPATH: pythonPath, MOTO_CLOCK_FILE: clockFile, PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitFor(
      'the moto S3 server',
      async () => {
        if (child.exitCode !== null) throw new Error(`the moto S3 server exited (${child.exitCode}): ${stderr}`);
        return fetch(`${endpoint}/`).then(
          (answer) => answer.ok,
          () => false,
        );
      },
      30_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: TEST_CREDENTIALS });
  const bucket = `mps-test-${port}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    client,
    env: (prefix) => ({
      BLOB_STORE: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
    }),
    setClock: (offsetMs) => fs.writeFileSync(clockFile, String(offsetMs / 1000)),
    async stop() {
      client.destroy();
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
