// A client that sends a file request's headers and goes away while the API still checks its key
// and arguments: the body, read afterwards, must fail at once. It used to never end — the
// request's handler waited forever and its half-written upload (`uploads/….partial`) stayed
// (found by test/faults/scale-out.test.ts, whose clients give some requests up early).
import http from 'node:http';
import net from 'node:net';
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { decodedBody } from '../../api/requestBody.js';

/** Serves one request: waits `delayMs` (as authentication does), then reads the body; resolves with how reading it ended. */
function serveOne(delayMs: number): Promise<{ server: http.Server; outcome: Promise<string> }> {
  return new Promise((resolveServer) => {
    let settle: (outcome: string) => void;
    const outcome = new Promise<string>((resolve) => (settle = resolve));
    const server = http.createServer(async (req) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const ctx = { req, get: (name: string) => String(req.headers[name.toLowerCase()] ?? '') } as unknown as Context;
      const body = decodedBody(ctx);
      const timer = setTimeout(() => settle('still reading after 2 s'), 2_000);
      body.on('error', () => (clearTimeout(timer), settle('error')));
      body.on('end', () => (clearTimeout(timer), settle('end')));
      body.resume();
    });
    server.listen(0, '127.0.0.1', () => resolveServer({ server, outcome }));
  });
}

describe('a request body whose client went away before it was read', () => {
  for (const encoding of [undefined, 'gzip']) {
    it(`fails at once${encoding ? ` (Content-Encoding: ${encoding})` : ''}`, async () => {
      const { server, outcome } = await serveOne(200);
      const { port } = server.address() as net.AddressInfo;
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`POST /api/1/map/append HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n${encoding ? `Content-Encoding: ${encoding}\r\n` : ''}\r\n${'x'.repeat(1000)}`);
        setTimeout(() => socket.destroy(), 50);
      });
      try {
        expect(await outcome).toBe('error');
      } finally {
        server.close();
      }
    });
  }
});
