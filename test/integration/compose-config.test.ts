// docker-compose.yml, the scaled-out shape (README, "Running at scale"), checked by Compose
// itself: the file is valid and has the services an operator scales — the API, a worker per task
// queue (maps, media, render), PostgreSQL, Temporal with its UI and the S3-compatible store.
// Compose is the Docker CLI's plugin (`docker compose`) or, where that is missing, Debian's
// `docker-compose` (.ci/run installs it); nothing is started.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function compose(args: string[]): { status: number | null; stdout: string; stderr: string } | undefined {
  for (const [command, prefix] of [
    ['docker', ['compose']],
    ['docker-compose', []],
  ] as const) {
    const run = spawnSync(command, [...prefix, ...args], { encoding: 'utf8', env: { ...process.env, COMPOSE_PROJECT_NAME: 'config-check' } });
    if (run.error || (prefix.length > 0 && /unknown command|is not a docker command/.test(run.stderr))) continue;
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  }
  return undefined;
}

describe('docker-compose.yml', () => {
  it('is valid Compose with the API, a worker per task queue, PostgreSQL, Temporal and S3 storage', () => {
    const valid = compose(['-f', 'docker-compose.yml', 'config', '-q']);
    if (!valid) throw new Error('Neither `docker compose` nor `docker-compose` is installed (.ci/run installs Debian\'s docker-compose)');
    expect(valid.stderr.replace(/^.*(warn|WARN).*$/gm, '').trim()).toBe('');
    expect(valid.status).toBe(0);
    const services = compose(['-f', 'docker-compose.yml', 'config', '--services'])!.stdout.split('\n').filter(Boolean).sort();
    expect(services).toEqual(['api', 'media-worker', 'postgres', 'render-worker', 's3', 'temporal', 'temporal-ui', 'worker']);
  });
});
