// The row lines a parser thread sends while it parses (parserThread.ts's `rows`), as the chunks
// a COPY reads: the thread's end of a channel goes with the task; this end yields each write's
// bytes as they come, ends at the thread's last message, and fails when the parse fails (so the
// COPY, and the transaction it is in, never takes a partial file).
import { MessageChannel, type MessagePort } from 'node:worker_threads';

export class RowsFromThread {
  /** The end that goes to the parser thread. */
  readonly port: MessagePort;
  private readonly own: MessagePort;
  private chunks: Buffer[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.own = port1;
    this.port = port2;
    this.own.on('message', (message: Uint8Array | null) => {
      if (message === null) this.ended = true;
      else this.chunks.push(Buffer.from(message.buffer, message.byteOffset, message.byteLength));
      this.wake?.();
    });
  }

  /** The parse failed (or was cancelled): the lines end with this error. */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.wake?.();
  }

  /** Stops listening (once the parse has ended, however). */
  close(): void {
    this.own.close();
  }

  async *lines(): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      if (this.chunks.length > 0) {
        const chunks = this.chunks;
        this.chunks = [];
        yield* chunks;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
