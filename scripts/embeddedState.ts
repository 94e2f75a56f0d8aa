// The file through which a running embedded service tells the operator CLI where it listens.
import fs from 'node:fs';
import path from 'node:path';

export interface EmbeddedState {
  url: string;
  token: string;
  pid: number;
}

const fileOf = (dataDir: string) => path.join(dataDir, 'embedded-service.json');

export function writeEmbeddedState(dataDir: string, state: EmbeddedState): void {
  fs.writeFileSync(fileOf(dataDir), JSON.stringify(state), { mode: 0o600 });
}

export function removeEmbeddedState(dataDir: string): void {
  fs.rmSync(fileOf(dataDir), { force: true });
}

/** The running service's state, or undefined when none runs (a stale file of a dead process is ignored). */
export function readEmbeddedState(dataDir: string): EmbeddedState | undefined {
  let state: EmbeddedState;
  try {
    state = JSON.parse(fs.readFileSync(fileOf(dataDir), 'utf8')) as EmbeddedState;
  } catch {
    return undefined;
  }
  try {
    process.kill(state.pid, 0);
    return state;
  } catch {
    return undefined;
  }
}
