// Stopping an HTTP server without cutting requests off: it stops accepting connections, answers
// the requests in flight (a map/upload waiting for its workflow, a map/get streaming out), closes
// each keep-alive connection as soon as it is idle, and resolves once every connection is gone.
// Node's server.close() alone leaves a connection whose request is in flight open for further
// requests (its answer still says keep-alive) until the keep-alive timeout.
import type http from 'node:http';

export interface HttpDrain {
  /** Requests being answered now. */
  readonly inFlight: number;
  /** Stops the server; resolves when every connection has closed. `deadline` aborting destroys the connections still open. */
  stop(deadline: AbortSignal): Promise<void>;
}

/** Starts counting the server's requests (call it right after listen). */
export function httpDrain(server: http.Server, log: (line: string) => void = (line) => console.log(line)): HttpDrain {
  const answering = new Set<http.ServerResponse>();
  let stopping = false;
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    answering.add(res);
    // A request that came on a kept-alive connection during the stop: answered, then the connection closes.
    if (stopping) res.shouldKeepAlive = false;
    res.once('close', () => {
      answering.delete(res);
      if (stopping) server.closeIdleConnections();
    });
  });
  return {
    get inFlight() {
      return answering.size;
    },
    async stop(deadline) {
      stopping = true;
      if (answering.size > 0) log(`Finishing ${answering.size} request${answering.size === 1 ? '' : 's'} in flight; new connections are refused.`);
      // Answers not begun yet say "Connection: close"; one already streaming closes when idle.
      for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = () => {
        if (answering.size > 0) log(`Cutting off ${answering.size} request${answering.size === 1 ? '' : 's'} still in flight.`);
        server.closeAllConnections();
      };
      if (deadline.aborted) cut();
      else deadline.addEventListener('abort', cut, { once: true });
      await closed;
      deadline.removeEventListener('abort', cut);
    },
  };
}
