// The Temporal dev server `npm start` runs (scripts/temporalDevServer.ts): a port found free can be
// taken before the server binds it (a busy machine, tests in parallel), and a server that cannot
// start must say why.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/freePort.js';
import { startTemporalDevServer } from '../../scripts/temporalDevServer.js';

describe('starting the Temporal dev server', () => {
  let taken: net.Server;
  let takenPort: number;
  const accepted = new Set<net.Socket>();
  beforeAll(async () => {
    // Accepts connections and answers nothing, as another program on the port might.
    taken = net.createServer((socket) => {
      accepted.add(socket);
      socket.on('close', () => accepted.delete(socket));
      socket.resume(); // reads (and drops) what it is sent, so it sees the other side close
    });
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));


  it('starts on other ports when a port it was given is taken meanwhile', async () => {
    const handedOut: number[] = [];
    const findPort = async () => {
      const port = handedOut.length === 0 ? takenPort : await freePort();
      handedOut.push(port);
      return port;
    };
    const server = await startTemporalDevServer({ findPort });
    try {
      expect(handedOut[0]).toBe(takenPort);
      expect(server.address).toBe(`127.0.0.1:${handedOut[1]}`);
    } finally {
      await server.stop();
    }
  });

  it('gives up after three tries, saying which port was taken', async () => {
    let calls = 0;
    const findPort = async () => {
      calls++;
      return takenPort;
    };
    await expect(startTemporalDevServer({ findPort })).rejects.toThrow(new RegExp(`exited with code 1: .*${takenPort}.*address already in use`));
    expect(calls).toBe(3);
  });

  it('says what the server printed when it cannot start for another reason, without trying again', async () => {
    let calls = 0;
    const findPort = async () => {
      calls++;
      return freePort();
    };
    await expect(startTemporalDevServer({ dbFile: '/nonexistent-directory/temporal.sqlite', findPort })).rejects.toThrow(
      /exited with code 1: .*nonexistent-directory.*no such file or directory/,
    );
    expect(calls).toBe(1);
  });
  it('leaves no connection open to the port that was taken', () => {
    // Runs last: the tries above each connected to it to see whether Temporal answered there.
    expect(accepted.size).toBe(0);
  });
});
