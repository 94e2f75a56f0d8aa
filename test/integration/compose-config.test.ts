// docker-compose.yml, the scaled-out shape (README, "Running at scale"), checked by Compose
// itself: the file is valid and has the services an operator scales — the API, a worker per task
// queue (maps, media, render), PostgreSQL, Temporal with its UI and the S3-compatible store.
// Compose is the Docker CLI's plugin (`docker compose`) or, where that is missing, Debian's
// `docker-compose` (.ci/run installs it); nothing is started.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** The Compose command here: Docker's plugin if it answers, else docker-compose. */
function composeCommand(): string[] | undefined {
  const plugin = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (!plugin.error && plugin.status === 0) return ['docker', 'compose'];
  const standalone = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  return !standalone.error && standalone.status === 0 ? ['docker-compose'] : undefined;
}

function compose(command: string[], args: string[]) {
  return spawnSync(command[0]!, [...command.slice(1), '-f', 'docker-compose.yml', ...args], { encoding: 'utf8', env: { ...process.env, COMPOSE_PROJECT_NAME: 'config-check' } });
}

describe('docker-compose.yml', () => {
  it('is valid Compose with the API, a worker per task queue, PostgreSQL, Temporal and S3 storage', () => {
    const command = composeCommand();
    if (!command) throw new Error("Neither `docker compose` nor `docker-compose` is installed (.ci/run installs Debian's docker-compose)");
    const valid = compose(command, ['config', '-q']);
    expect(valid.stderr.replace(/^.*(warn|WARN).*$/gm, '').trim()).toBe('');
    expect(valid.status).toBe(0);
    const services = compose(command, ['config', '--services']).stdout.split('\n').filter(Boolean).sort();
    expect(services).toEqual(['api', 'media-worker', 'postgres', 'render-worker', 's3', 'temporal', 'temporal-ui', 'worker']);
  });
});
