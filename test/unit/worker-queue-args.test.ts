import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config.js';
import { envWithQueueArgs } from '../../workers/queueArgs.js';

describe('the worker command line (npm run worker -- --queues …)', () => {
  it('puts --queues in place of WORKER_QUEUES, checked by the same rule', () => {
    expect(loadConfig(envWithQueueArgs(['--queues', 'maps,render'], { WORKER_QUEUES: 'media' })).workerQueues).toEqual(['maps', 'render']);
    expect(loadConfig(envWithQueueArgs(['--queues=media'], {})).workerQueues).toEqual(['media']);
    expect(loadConfig(envWithQueueArgs([], {})).workerQueues).toEqual(['maps', 'media', 'render']);
    expect(() => loadConfig(envWithQueueArgs(['--queues', 'maps,pictures'], {}))).toThrow(/WORKER_QUEUES.*maps, media and render/);
    expect(() => envWithQueueArgs(['--queue', 'maps'], {})).toThrow(ConfigError);
  });
});
