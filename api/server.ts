// The HTTP server around the Koa app: headers large enough for the documented arguments, and
// requests Node refuses before Koa sees them (headers too large, malformed requests) answered
// in the API's own shape (HTTP 200, {"error", "error_code"}) instead of a bare 431/400.
import http from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import { ConfigError } from '../lib/config.js';

/**
 * All request headers together. The file operations carry their arguments in one header, and
 * the longest documented argument (a 100,000-character description, every character written as
 * a 6-byte \u escape) needs about 600 kB of it.
 */
export const MAX_HEADER_BYTES = 1024 * 1024;

/** Headers every answer carries, also those written here below Koa. */
export const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff' } as const;

const answered = new WeakSet<Socket>();

function refusal(error: NodeJS.ErrnoException): { message: string; code: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'headers_too_large',
      message: `The request headers are larger than ${MAX_HEADER_BYTES / 1024} kB; send long texts in a JSON operation's body.`,
    };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'request_timeout', message: 'The request did not arrive in time (its headers, or the whole of it).' };
  }
  return { code: 'malformed_request', message: 'The request is not a well-formed HTTP request.' };
}

/**
 * Answers a request Node's parser refused. The client may still be sending: what it sends is
 * read and dropped for a moment, so it sees this answer rather than a reset connection.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A response already under way on this connection (a pipelined request after it) is not to
  // be broken into: the connection is closed, as Node does.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  if (answered.has(socket) || !socket.writable) return;
  answered.add(socket);
  const { message, code } = refusal(error);
  const body = JSON.stringify({ error: message, error_code: code });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    ...COMMON_HEADERS,
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.on('data', () => {});
  socket.end(`HTTP/1.1 200 OK\r\n${head}\r\n${body}`);
  setTimeout(() => socket.destroy(), 5_000).unref();
}

/** Starts serving the app; resolves once it listens. */
export function listen(app: Koa, port: number, host: string): Promise<http.Server> {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app.callback());
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) =>
      // The one failure an operator meets often (another service, or a second `npm start`): said plainly.
      reject(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new ConfigError(`Cannot listen on ${host}:${port} (${error.code === 'EADDRINUSE' ? 'another process listens there' : 'not allowed'}): set PORT (or HOST) to another.`) : error);
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve(server);
    });
  });
}
