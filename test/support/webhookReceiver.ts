// A webhook endpoint for the tests: a local HTTP or HTTPS server (a certificate of the test's
// own CA, test/support/testCertificates.ts) that records every delivery with the answer it gave.
// `answer` chooses the status per request. `down()` stops listening and drops its connections,
// so deliveries are refused at connect (a receiver that is down); `up()` listens again on the same port.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body as received. */
  body: string;
  /** The status the receiver answered. */
  status: number;
  /** The event id (Webhook-Id). */
  id: string;
}

export interface WebhookReceiver {
  /** `http(s)://127.0.0.1:<port>`. */
  readonly base: string;
  readonly received: ReceivedDelivery[];
  /** The deliveries answered with a 2xx, by event id. */
  successesById(): Map<string, number>;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: {
  tls?: { cert: string; key: string };
  /** The status to answer (default 200); a promise holds the answer until it settles. */
  answer?: (request: Omit<ReceivedDelivery, 'status'>) => number | Promise<number>;
}): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const sockets = new Set<Socket>();
  const handler: http.RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const delivery = { path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), id: String(request.headers['webhook-id'] ?? '') };
      // A check that throws answers 500 (a receiver that broke), never an unhandled rejection.
      const status = await Promise.resolve()
        .then(() => options.answer?.(delivery) ?? 200)
        .catch(() => 500);
      received.push({ ...delivery, status });
      if (response.destroyed) return;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
    });
  };
  const server = options.tls ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, handler) : http.createServer(handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  if (options.tls) server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const down = async () => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    base: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    received,
    successesById() {
      const counts = new Map<string, number>();
      for (const delivery of received) if (delivery.status >= 200 && delivery.status < 300) counts.set(delivery.id, (counts.get(delivery.id) ?? 0) + 1);
      return counts;
    },
    down,
    up: () => (server.listening ? Promise.resolve() : listen(port)),
    close: down,
  };
}
